package org.ibtwin.diag;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ibtwin.format.NodeNameMap;
import org.ibtwin.mad.Printer;
import org.ibtwin.transport.Smp;

/** A {@link NetFabric} as plain maps and lists, for the scanning tools' --json. */
public final class NetJson {
    private final NodeNameMap names;

    public NetJson(NodeNameMap names) {
        this.names = names == null ? NodeNameMap.empty() : names;
    }

    /** The whole fabric: where the scan started, its figures, and every node in the tools' order. */
    public Map<String, Object> fabric(NetFabric f, List<NetNode> nodes) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("from", String.format("0x%016x", f.from().guid()));
        m.put("maxHopsDiscovered", f.maxHopsDiscovered());
        m.put("smps", f.smps());
        List<Object> l = new ArrayList<>();
        for (NetNode n : nodes) {
            l.add(node(n, true));
        }
        m.put("nodes", l);
        return m;
    }

    /** One node; with {@code ports}, its known ports (1..n) and their links. */
    public Map<String, Object> node(NetNode n, boolean ports) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", switch (n.type()) {
            case NetNode.SWITCH -> "switch";
            case NetNode.CA -> "ca";
            case NetNode.ROUTER -> "router";
            default -> "unknown";
        });
        m.put("guid", String.format("0x%016x", n.guid()));
        m.put("portGuid", String.format("0x%016x", n.portGuid()));
        m.put("description", n.description());
        m.put("name", names.name(n.guid(), n.description()));
        m.put("ports", n.numPorts());
        m.put("vendorId", String.format("0x%x", n.vendorId()));
        m.put("deviceId", String.format("0x%x", n.deviceId()));
        if (n.isSwitch()) {
            m.put("lid", n.smaLid());
            m.put("lmc", n.smaLmc());
            m.put("enhancedPort0", n.enhancedPort0());
        }
        m.put("drPath", Smp.pathString(n.path()));
        if (ports) {
            List<Object> l = new ArrayList<>();
            for (int i = 1; i <= n.numPorts(); i++) {
                NetPort p = n.port(i);
                if (p != null) {
                    l.add(port(p));
                }
            }
            m.put("portList", l);
        }
        return m;
    }

    /** A port: its state, rates and link, and iblinkinfo's hints when it is linked. */
    public Map<String, Object> port(NetPort p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("port", p.number());
        m.put("guid", String.format("0x%016x", p.guid()));
        m.put("lid", p.baseLid());
        m.put("lmc", p.lmc());
        if (p.info() != null) {
            m.put("state", Printer.PORT_STATE.format(p.state(), 4));
            m.put("physState", Printer.PHYS_PORT_STATE.format(p.physState(), 4));
            if (p.state() != 1) {
                m.put("width", NetOutputs.widthCompat(p.widthActive()));
                m.put("speed", NetOutputs.speedCompat(p.speedActive(), p.speedExtActive(), p.fdr10()));
            }
        }
        NetPort r = p.remote();
        if (r != null) {
            Map<String, Object> rm = new LinkedHashMap<>();
            rm.put("guid", String.format("0x%016x", r.node().guid()));
            rm.put("name", names.name(r.node().guid(), r.node().description()));
            rm.put("port", r.number());
            rm.put("lid", r.baseLid() != 0 ? r.baseLid() : r.node().smaLid());
            m.put("remote", rm);
            String[] could = NetOutputs.couldBe(p);
            if (!could[0].isEmpty()) {
                m.put("couldBeWidth", could[0].substring("Could be ".length()));
            }
            if (!could[1].isEmpty()) {
                m.put("couldBeSpeed", could[1].substring("Could be ".length()));
            }
        }
        return m;
    }
}
