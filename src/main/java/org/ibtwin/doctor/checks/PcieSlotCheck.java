package org.ibtwin.doctor.checks;

import java.util.ArrayList;
import java.util.List;
import org.ibtwin.doctor.Check;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Finding;
import org.ibtwin.doctor.HostInfo;
import org.ibtwin.doctor.Severity;
import org.ibtwin.doctor.Thresholds;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Node;
import org.ibtwin.model.PcieGen;
import org.ibtwin.perf.Pcie;

/**
 * T07: an HCA in a PCIe slot too narrow or too old for its port. The slot's usable rate is {@link Pcie#usableGbps}
 * (lanes x the generation's per-lane rate after line encoding x the share left for TLPs), the figure every command
 * prints. When that is below the port's data rate (a Gen3 x8 slot, 55.5 Gb/s usable, 63.0 raw, under a 200 Gb/s HDR
 * port), RDMA bandwidth stops at the slot. Also flagged: a
 * card whose lspci LnkSta shows it negotiated below its own LnkCap (a x16 card in an x8 slot).
 */
public final class PcieSlotCheck implements Check {
    static final int DEFAULT_MPS = 256;
    static final String FIX = "move the HCA to a PCIe slot that carries the port's rate (Gen4 x16 for HDR, Gen5 x16 "
            + "for NDR; an x16 slot wired as x8 is not enough); check the BIOS link settings";

    @Override
    public String id() {
        return "T07";
    }

    @Override
    public String name() {
        return "PCIe slot narrower or older than the port";
    }

    @Override
    public String skipReason(FabricState s) {
        for (HostInfo h : s.hosts().values()) {
            if (h.pcieGen() != null && h.pcieLanes() != null) {
                return null;
            }
        }
        return "no PCIe link facts (fabric description, or lspci -vv outputs)";
    }

    @Override
    public List<Finding> run(FabricState s, Thresholds t) {
        List<Finding> out = new ArrayList<>();
        for (HostInfo h : s.hosts().values()) {
            PcieGen gen = h.pcieGen();
            Integer lanes = h.pcieLanes();
            if (gen == null || lanes == null) {
                continue;
            }
            int mps = h.maxPayload() == null ? DEFAULT_MPS : h.maxPayload();
            double usable = Pcie.usableGbps(gen, lanes);
            double port = portGbps(h);
            String slot = "Gen" + gen.number() + " x" + lanes;
            List<String> ev = new ArrayList<>();
            boolean slow = port > 0 && usable < port;
            if (slow) {
                ev.add(h.host() + ": PCIe " + slot + " carries " + Pcie.rates(gen, lanes) + ", max payload " + mps
                        + " bytes" + Words.from(h.source(HostInfo.Key.PCIE_GEN)));
                ev.add("the port runs " + portLabel(h) + ": RDMA bandwidth stops below " + Pcie.gbps(usable)
                        + " Gb/s (TLP headers take their share of it)");
            }
            PcieGen capGen = h.pcieCapGen();
            Integer capLanes = h.pcieCapLanes();
            boolean downgraded = capGen != null && capLanes != null
                    && (capGen.number() > gen.number() || capLanes > lanes);
            if (downgraded) {
                ev.add(h.host() + ": the card supports Gen" + capGen.number() + " x" + capLanes + " (LnkCap) but "
                        + "negotiated " + slot + " (LnkSta)" + Words.from(h.source(HostInfo.Key.PCIE_CAP_GEN)));
            }
            if (!slow && !downgraded) {
                continue;
            }
            String title = slow ? "HCA in a PCIe " + slot + " slot: " + Pcie.gbps(usable) + " Gb/s usable under a "
                    + Words.gbps(port) + " Gb/s port" : "HCA negotiated PCIe " + slot + ", below what the card supports";
            out.add(new Finding(id(), Severity.WARNING, h.host(), title, ev, FIX));
        }
        return out;
    }

    /** The data rate of the host's fastest port, Gb/s; 0 when unknown. */
    static double portGbps(HostInfo h) {
        double best = 0;
        Node n = h.node();
        if (n != null) {
            for (int i = 1; i <= n.numPorts(); i++) {
                Link l = n.port(i).link();
                if (l != null && l.isUp()) {
                    best = Math.max(best, l.dataGbps());
                }
            }
            if (best > 0) {
                return best;
            }
        }
        for (HostInfo.PortFacts p : h.ports().values()) {
            if (p.speed != null) {
                LinkWidth w = p.width == null ? LinkWidth.X4 : p.width;
                best = Math.max(best, Link.dataGbps(w, p.speed));
            } else if (p.rateGbps != null) {
                best = Math.max(best, p.rateGbps);
            }
        }
        return best;
    }

    private static String portLabel(HostInfo h) {
        Node n = h.node();
        if (n != null) {
            for (int i = 1; i <= n.numPorts(); i++) {
                Link l = n.port(i).link();
                if (l != null && l.isUp()) {
                    return Words.active(l);
                }
            }
        }
        return Words.gbps(portGbps(h)) + " Gb/s";
    }
}
