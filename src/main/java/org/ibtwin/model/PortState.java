package org.ibtwin.model;

/** PortInfo PortState (logical). */
public enum PortState {
    DOWN(1, "Down"),
    INIT(2, "Initialize"),
    ARMED(3, "Armed"),
    ACTIVE(4, "Active");

    private final int code;
    private final String label;

    PortState(int code, String label) {
        this.code = code;
        this.label = label;
    }

    public int code() {
        return code;
    }

    /** The word the tools print (iblinkinfo, ibstat). */
    public String label() {
        return label;
    }

    public static PortState ofCode(int code) {
        for (PortState s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        return null;
    }
}
