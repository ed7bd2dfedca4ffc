package org.ibtwin.perf;

import org.ibtwin.model.Link;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;

/**
 * Link data rates: lanes x the lane data rate left after line encoding (8b/10b to QDR, 64b/66b for FDR10 to EDR,
 * PAM4 with RS-FEC from HDR). 4x EDR is 4 x 25 = 100 Gb/s, 2x HDR (HDR100) 2 x 50 = 100 Gb/s.
 */
public final class LinkRates {
    private LinkRates() {
    }

    /** Data rate of a width and speed in Gb/s. */
    public static double dataGbps(LinkWidth width, LinkSpeed speed) {
        return Link.dataGbps(width, speed);
    }

    /** Data rate of a trained link in Gb/s, 0 when it is down. */
    public static double dataGbps(Link link) {
        return link.isUp() ? dataGbps(link.activeWidth(), link.activeSpeed()) : 0;
    }

    /** "4xHDR" as the tools print a trained link. */
    public static String label(Link link) {
        return link.isUp() ? link.activeWidth().label() + link.activeSpeed().label() : "down";
    }
}
