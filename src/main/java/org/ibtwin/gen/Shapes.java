package org.ibtwin.gen;

import java.util.Locale;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Node;

/**
 * Small fabrics, built with the fat-tree conventions: default host names ("node001 mlx5_0"), the default GUID base,
 * passive copper 2 m host cables, 4x at the given speed.
 */
public final class Shapes {
    private Shapes() {
    }

    /** Two hosts cabled port to port, no switch: node001 and node002. */
    public static Fabric backToBack(LinkSpeed speed) {
        FabricBuilder b = builder(speed);
        Node h1 = b.addHost();
        Node h2 = b.addHost();
        b.connect(h1.port(1), h2.port(1), b.hostCable);
        return b.fabric();
    }

    /** One switch, "switch01", with {@code radix} ports; host {@code i} on port {@code i}. */
    public static Fabric singleSwitch(int hosts, int radix, LinkSpeed speed) {
        if (radix < 1 || radix > FatTreeSpec.MAX_RADIX) {
            throw new IllegalArgumentException("radix must be 1.." + FatTreeSpec.MAX_RADIX + ", got " + radix);
        }
        if (hosts < 1 || hosts > radix) {
            throw new IllegalArgumentException("hosts must be 1..radix (" + radix + "), got " + hosts);
        }
        FabricBuilder b = builder(speed, radix);
        Node sw = b.addSwitch("switch01", radix);
        for (int i = 1; i <= hosts; i++) {
            b.connect(b.addHost().port(1), sw.port(i), b.hostCable);
        }
        return b.fabric();
    }

    private static FabricBuilder builder(LinkSpeed speed) {
        return builder(speed, 0);
    }

    private static FabricBuilder builder(LinkSpeed speed, int radix) {
        if (speed == null) {
            throw new IllegalArgumentException("speed is required");
        }
        return new FabricBuilder(speed, FatTreeSpec.DEFAULT_GUID_BASE,
                n -> String.format(Locale.ROOT, FatTreeSpec.DEFAULT_HOST_NAME, n), radix);
    }
}
