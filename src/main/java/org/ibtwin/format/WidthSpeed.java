package org.ibtwin.format;

import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;

/** The {@code 4xEDR} token the tools print for a link's active width and speed. */
record WidthSpeed(LinkWidth width, LinkSpeed speed) {

    /** Parses "4xEDR", "12xQDR", "4XFDR10"; null when the token is not one. */
    static WidthSpeed parse(String token) {
        int x = -1;
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c == 'x' || c == 'X') {
                x = i;
                break;
            }
            if (c < '0' || c > '9') {
                return null;
            }
        }
        if (x <= 0) {
            return null;
        }
        LinkWidth w = LinkWidth.parse(token.substring(0, x));
        LinkSpeed s = LinkSpeed.parse(token.substring(x + 1));
        return w == null || s == null ? null : new WidthSpeed(w, s);
    }

    static String label(LinkWidth w, LinkSpeed s) {
        return w.lanes() + "x" + s.label();
    }
}
