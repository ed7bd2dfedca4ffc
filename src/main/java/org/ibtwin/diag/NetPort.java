package org.ibtwin.diag;

import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.SmpAttributes;

/**
 * A port found by {@link NetDiscovery}: its PortInfo as the SMA answered it (null for a port only seen through a
 * NodeInfo, such as a CA's port nobody asked about), the Mellanox ExtendedPortInfo when it was asked (QDR links on
 * the devices that have it, for FDR10), and the port at the other end of its cable once both ends were reached.
 * Switch ports other than 0 carry the switch's LID and LMC, as libibnetdisc records them.
 */
public final class NetPort {
    private static final Layout PI = SmpAttributes.PORT_INFO;
    static final Field LID = PI.field("Lid");
    static final Field LMC = PI.field("LMC");
    static final Field LOCAL_PORT = PI.field("LocalPort");
    static final Field STATE = PI.field("LinkState");
    static final Field PHYS = PI.field("PhysLinkState");
    static final Field WIDTH_ACTIVE = PI.field("LinkWidthActive");
    static final Field WIDTH_SUPPORTED = PI.field("LinkWidthSupported");
    static final Field WIDTH_ENABLED = PI.field("LinkWidthEnabled");
    static final Field SPEED_ACTIVE = PI.field("LinkSpeedActive");
    static final Field SPEED_SUPPORTED = PI.field("LinkSpeedSupported");
    static final Field SPEED_ENABLED = PI.field("LinkSpeedEnabled");
    static final Field EXT_ACTIVE = PI.field("LinkSpeedExtActive");
    static final Field EXT_SUPPORTED = PI.field("LinkSpeedExtSupported");
    static final Field EXT_ENABLED = PI.field("LinkSpeedExtEnabled");
    static final Field EXT2_ACTIVE = PI.field("LinkSpeedExtActive2");
    static final Field EXT2_SUPPORTED = PI.field("LinkSpeedExtSupported2");
    static final Field EXT2_ENABLED = PI.field("LinkSpeedExtEnabled2");
    static final Field CAP_MASK = PI.field("CapMask");
    static final Field CAP_MASK2 = PI.field("CapabilityMask2");
    static final Field VL_CAP = PI.field("VLCap");
    static final Field MTU_ACTIVE = PI.field("NeighborMTU");
    static final Field OPER_VLS = PI.field("OperVLs");
    static final Field HOQ_LIFE = PI.field("HoqLife");
    static final Field VL_STALL = PI.field("VLStallCount");
    private static final Field MEPI_SPEED_ACTIVE = SmpAttributes.MLNX_EXT_PORT_INFO.field("LinkSpeedActive");
    private static final Field MEPI_SPEED_SUPPORTED = SmpAttributes.MLNX_EXT_PORT_INFO.field("LinkSpeedSupported");

    /** PhysLinkState LinkUp. */
    public static final int PHYS_LINK_UP = 5;
    private static final long CAP_HAS_EXT_SPEEDS = 0x4000;
    private static final long CAP_HAS_CAP_MASK2 = 0x8000;
    private static final long CAP2_EXT_SPEEDS_2 = 0x0800;

    private final NetNode node;
    private final int number;
    long guid;
    byte[] info;
    byte[] extInfo;
    NetPort remote;
    int baseLid;
    int lmc;
    int extPortNum;
    /** When its PortInfo first came (libibnetdisc's port table order, which its cache files keep); -1: never. */
    long indexed = -1;

    NetPort(NetNode node, int number) {
        this.node = node;
        this.number = number;
    }

    public NetNode node() {
        return node;
    }

    public int number() {
        return number;
    }

    public long guid() {
        return guid;
    }

    /** The 64 bytes of PortInfo, or null when the port was never asked. */
    public byte[] info() {
        return info;
    }

    /** The Mellanox ExtendedPortInfo data, or null when not asked. */
    public byte[] extInfo() {
        return extInfo;
    }

    /** The port at the other end, or null. */
    public NetPort remote() {
        return remote;
    }

    /** The port's LID (a switch port: the switch's, from port 0). */
    public int baseLid() {
        return baseLid;
    }

    public int lmc() {
        return lmc;
    }

    /** A PortInfo field (0 when the port was never asked). */
    public long get(Field f) {
        return info == null ? 0 : f.get(info, 0);
    }

    public int state() {
        return (int) get(STATE);
    }

    public int physState() {
        return (int) get(PHYS);
    }

    public int widthActive() {
        return (int) get(WIDTH_ACTIVE);
    }

    public int speedActive() {
        return (int) get(SPEED_ACTIVE);
    }

    /** Whether the FDR10 bit is set in the Mellanox extended port info. */
    public boolean fdr10() {
        return extInfo != null && (MEPI_SPEED_ACTIVE.get(extInfo, 0) & 1) != 0;
    }

    /** Whether the FDR10 bit is set in the Mellanox extended port info's supported speeds. */
    public boolean fdr10Supported() {
        return extInfo != null && (MEPI_SPEED_SUPPORTED.get(extInfo, 0) & 1) != 0;
    }

    /**
     * The capability PortInfo: port 0's for a switch port (its CapabilityMask says what the switch supports), the
     * port's own otherwise; null when that was never asked.
     */
    public byte[] capInfo() {
        if (node.isSwitch()) {
            NetPort p0 = node.port(0);
            return p0 == null ? null : p0.info;
        }
        return info;
    }

    /** LinkSpeedExtActive with the XDR bits (libibnetdisc's aggregate: 1 FDR, 2 EDR, 4 HDR, 8 NDR, 32 XDR). */
    public int speedExtActive() {
        return aggregate(capInfo(), EXT_ACTIVE, EXT2_ACTIVE, true);
    }

    public int speedExtSupported() {
        return aggregate(capInfo(), EXT_SUPPORTED, EXT2_SUPPORTED, false);
    }

    public int speedExtEnabled() {
        return aggregate(capInfo(), EXT_ENABLED, EXT2_ENABLED, false);
    }

    private int aggregate(byte[] cap, Field ext, Field ext2, boolean active) {
        if (info == null) {
            return 0;
        }
        long mask = cap == null ? 0 : CAP_MASK.get(cap, 0);
        int e = 0;
        int e2 = 0;
        if ((mask & CAP_HAS_EXT_SPEEDS) != 0) {
            e = (int) ext.get(info, 0);
            if (ext == EXT_ENABLED && e == 30) {
                e = 0;
            }
            long mask2 = (mask & CAP_HAS_CAP_MASK2) != 0 ? CAP_MASK2.get(cap, 0) : 0;
            if ((mask2 & CAP2_EXT_SPEEDS_2) != 0) {
                e2 = (int) ext2.get(info, 0) << 5;
            }
        }
        if (active) {
            return e2 != 0 ? e2 : e;
        }
        return e | e2;
    }

    @Override
    public String toString() {
        return node + "/" + number;
    }
}
