package org.ibtwin.perf;

import org.ibtwin.model.HostFacts;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;

/**
 * One end of a test: the CA port it runs on, the host around it, the HCA generation, and whether the process (and
 * its buffers) sit on the NUMA node away from the HCA.
 */
public record Endpoint(Port port, HostFacts facts, HcaProfile hca, boolean farNuma) {
    public Endpoint {
        if (port == null || facts == null || hca == null) {
            throw new IllegalArgumentException("port, host facts and HCA profile are required");
        }
    }

    /** The endpoint of a CA port, with the host facts of its node (the built-in defaults when it has none). */
    public static Endpoint of(Port port, boolean farNuma) {
        Node n = port.node();
        HostFacts f = n.hostFacts() == null ? HostFacts.DEFAULT : n.hostFacts();
        return new Endpoint(port, f, HcaProfile.of(n), farNuma);
    }

    public Node node() {
        return port.node();
    }

    /** The host name: "node017". */
    public String name() {
        return Names.node(port.node());
    }

    /**
     * Usable PCIe rate in one direction for TLPs, Gb/s: raw x {@code pcieEfficiency}; on the far NUMA node also x
     * {@code numaFarBandwidth} and at most {@code interSocketGbps}.
     */
    public double pcieGbps(PerfParams p) {
        double g = Pcie.usableGbps(facts.pcieGen(), facts.pcieLanes(), p);
        return farNuma ? Math.min(g * p.numaFarBandwidth(), p.interSocketGbps()) : g;
    }

    /** Messages per second one QP sustains here, millions. */
    public double perQpMpps(PerfParams p) {
        return hca.perQpMpps() * (farNuma ? p.numaFarMessageRate() : 1);
    }
}
