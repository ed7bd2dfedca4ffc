package org.ibtwin.perf;

/**
 * The RDMA operations perftest measures, with the names its reports print ("RDMA_Write BW Test").
 *
 * <p>Data direction: SEND, WRITE and ATOMIC move data from the requester (perftest's client) to the responder
 * (its server); READ moves it from the responder back to the requester.
 */
public enum Op {
    SEND("Send"),
    WRITE("RDMA_Write"),
    READ("RDMA_Read"),
    ATOMIC("Atomic");

    private final String label;

    Op(String label) {
        this.label = label;
    }

    /** The name perftest prints: "Send", "RDMA_Write", "RDMA_Read", "Atomic". */
    public String label() {
        return label;
    }

    /** Does the data flow from the requester to the responder (SEND, WRITE, ATOMIC) rather than back (READ). */
    public boolean dataFromRequester() {
        return this != READ;
    }

    /** READ and ATOMIC keep a limited number of requests outstanding per QP (the HCA's max_qp_rd_atom). */
    public boolean usesOutstandingReads() {
        return this == READ || this == ATOMIC;
    }
}
