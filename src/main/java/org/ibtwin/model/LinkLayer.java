package org.ibtwin.model;

/** The link layer a port runs (mlxconfig LINK_TYPE). */
public enum LinkLayer {
    INFINIBAND("InfiniBand"),
    ETHERNET("Ethernet");

    private final String label;

    LinkLayer(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
