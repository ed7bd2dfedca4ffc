package org.ibtwin.model;

/** NodeInfo NodeType. */
public enum NodeType {
    CA(1, "Ca", "Channel Adapter"),
    SWITCH(2, "Switch", "Switch"),
    ROUTER(3, "Rt", "Router");

    private final int code;
    private final String keyword;
    private final String description;

    NodeType(int code, String keyword, String description) {
        this.code = code;
        this.keyword = keyword;
        this.description = description;
    }

    public int code() {
        return code;
    }

    /** The keyword the topology formats use: Ca, Switch, Rt. */
    public String keyword() {
        return keyword;
    }

    public String description() {
        return description;
    }

    public static NodeType ofCode(int code) {
        for (NodeType t : values()) {
            if (t.code == code) {
                return t;
            }
        }
        return null;
    }
}
