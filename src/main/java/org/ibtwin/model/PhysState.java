package org.ibtwin.model;

/** PortInfo PortPhysicalState. */
public enum PhysState {
    SLEEP(1, "Sleep"),
    POLLING(2, "Polling"),
    DISABLED(3, "Disabled"),
    PORT_CONFIGURATION_TRAINING(4, "PortConfigurationTraining"),
    LINK_UP(5, "LinkUp"),
    LINK_ERROR_RECOVERY(6, "LinkErrorRecovery"),
    PHY_TEST(7, "PhyTest");

    private final int code;
    private final String label;

    PhysState(int code, String label) {
        this.code = code;
        this.label = label;
    }

    public int code() {
        return code;
    }

    public String label() {
        return label;
    }

    public static PhysState ofCode(int code) {
        for (PhysState s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        return null;
    }
}
