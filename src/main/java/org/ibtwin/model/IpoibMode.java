package org.ibtwin.model;

/** IPoIB transport mode. */
public enum IpoibMode {
    DATAGRAM("datagram", 2044),
    CONNECTED("connected", 65520);

    private final String label;
    private final int defaultMtu;

    IpoibMode(String label, int defaultMtu) {
        this.label = label;
        this.defaultMtu = defaultMtu;
    }

    public String label() {
        return label;
    }

    /** The usual interface MTU in this mode. */
    public int defaultMtu() {
        return defaultMtu;
    }
}
