package org.ibtwin.perf.collective;

import java.util.Locale;

/** NCCL's algorithms the model knows. */
public enum Algorithm {
    /** Rings through every GPU, one per channel, the inter-node edges on the channel's rail. */
    RING("Ring"),
    /** NCCL's double binary tree over the nodes, a chain through the GPUs inside each node. */
    TREE("Tree"),
    /** NVLink SHARP inside one node: the NVSwitch reduces and multicasts (all_reduce on one node). */
    NVLS("NVLS"),
    /** NVLS inside each node and the double binary tree between nodes (all_reduce on several nodes). */
    NVLS_TREE("NVLSTree"),
    /** Point-to-point sends (alltoall, sendrecv): each rank's peers directly, through PXN onto the peer's rail. */
    P2P("P2P");

    private final String label;

    Algorithm(String label) {
        this.label = label;
    }

    /** NCCL's name: "Ring", "Tree", "NVLS", "NVLSTree". */
    public String label() {
        return label;
    }

    /** NCCL_ALGO-style name, or null: ring, tree, nvls, nvlstree (any case). */
    public static Algorithm parse(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT).replace("_", "");
        for (Algorithm a : values()) {
            if (a.label.toLowerCase(Locale.ROOT).equals(t)) {
                return a;
            }
        }
        return null;
    }
}
