package org.ibtwin.diag;

/**
 * The devices libibnetdisc asks for the Mellanox ExtendedPortInfo (attribute 0xFF90) on a QDR link, where FDR10
 * shows: Mellanox switches (SwitchX, Switch-IB, Quantum…) and HCAs (ConnectX-3 onwards, Connect-IB), and their Bull
 * (vendor 0x119f) rebrands. A fact table, by device id.
 */
final class MlnxDevices {
    private static final int BULL = 0x119f;

    private MlnxDevices() {
    }

    static boolean hasExtPortInfo(int vendorId, int devId) {
        return switchHas(vendorId, devId) || hcaHas(vendorId, devId);
    }

    private static boolean switchHas(int vendorId, int d) {
        if ((d >= 0xc738 && d <= 0xc73b) || d == 0xc839 || d == 0xcb20 || d == 0xcf08 || d == 0xcf09 || d == 0xd2f0) {
            return true;
        }
        return vendorId == BULL && (d == 0x1b02 || d == 0x1b50 || d == 0x1ba0 || (d >= 0x1bd0 && d <= 0x1bd5)
                || d == 0x1bf0);
    }

    private static boolean hcaHas(int vendorId, int d) {
        if ((d >= 0x1003 && d <= 0x101b) || d == 0xa2d2) {
            return true;
        }
        return vendorId == BULL && (d == 0x1b33 || d == 0x1b73 || d == 0x1b40 || d == 0x1b41 || d == 0x1b60
                || d == 0x1b61 || d == 0x1b83 || d == 0x1b93 || d == 0x1b94 || d == 0x1bb4 || d == 0x1bb5
                || (d >= 0x1bc4 && d <= 0x1bc6));
    }
}
