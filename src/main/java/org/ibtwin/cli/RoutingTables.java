package org.ibtwin.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ibtwin.format.FormatException;
import org.ibtwin.format.tools.SmOutputs;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.perf.LftRoutes;
import org.ibtwin.sm.routing.Lfts;
import org.ibtwin.sm.routing.SwitchGraph;

/**
 * A model fabric's switches and links as the {@link SwitchGraph} routing checks take, with the forwarding tables
 * someone programmed: read from an LFT dump (ibroute / dump_lfts output, or OpenSM's opensm-lfts.dump; LIDs placed
 * by the port GUIDs the dump names, so each SM's own LIDs), read live from the switches, or computed by one of our
 * engines on LIDs handed out here. Switch {@code i} of the graph is {@code f.switches().get(i)}.
 */
final class RoutingTables {
    /** A graph with its tables. */
    record Routed(SwitchGraph graph, Lfts lfts) {
    }

    private static final Pattern ROUTE = Pattern.compile(
            "^0x([0-9a-fA-F]{4}) \\d{3} [#:] \\(?(Channel Adapter|Switch|Router) portguid 0x([0-9a-fA-F]{16})[:)]",
            Pattern.MULTILINE);

    private RoutingTables() {
    }

    private static SwitchGraph.Builder switches(Fabric f, int top, Map<Long, Integer> index) {
        List<Node> sws = f.switches();
        SwitchGraph.Builder b = SwitchGraph.builder(sws.size(), top);
        for (int s = 0; s < sws.size(); s++) {
            Node n = sws.get(s);
            index.put(n.guid(), s);
            b.setSwitch(s, n.guid(), n.description().split(" ")[0], n.numPorts());
        }
        for (Link l : f.links()) {
            if (l.isUp() && l.a().node().isSwitch() && l.b().node().isSwitch()) {
                b.link(index.get(l.a().node().guid()), l.a().number(), index.get(l.b().node().guid()),
                        l.b().number());
            }
        }
        return b;
    }

    private static void place(SwitchGraph.Builder b, Map<Long, Integer> index, Port p, int lid, int count) {
        if (p.node().isSwitch()) {
            b.dest(lid, count, index.get(p.node().guid()), 0, false);
        } else if (p.remote() != null && p.remote().node().isSwitch()) {
            b.dest(lid, count, index.get(p.remote().node().guid()), p.remote().number(), true);
        }
    }

    /** The tables of an LFT dump on {@code f}; a switch or port GUID the fabric lacks is {@code file:line: ...}. */
    static Routed fromDump(Fabric f, String dump, String file) {
        try {
            return fromDump(f, new BufferedReader(new StringReader(dump)), file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);   // a string reader does not fail
        }
    }

    /**
     * The tables of an LFT dump read a line at a time from {@code in} (OpenSM's dump of a 16,384-CA fabric is more
     * than one string holds); a switch or port GUID the fabric lacks is {@code file:line: ...}.
     */
    static Routed fromDump(Fabric f, BufferedReader in, String file) throws IOException {
        List<SmOutputs.Routes> routes = new ArrayList<>();
        SmOutputs.RouteReader reader = new SmOutputs.RouteReader(file, routes::add);
        // the port each LID is given to, by the GUID its first route line names, and that line
        long[] guidOf = new long[0x10000];
        int[] lineOf = new int[0x10000];
        Matcher m = ROUTE.matcher("");
        for (String l = in.readLine(); l != null; l = in.readLine()) {
            reader.line(l);
            if (l.startsWith("0x") && m.reset(l).find()) {
                int lid = Integer.parseInt(m.group(1), 16);
                if (lineOf[lid] == 0) {
                    guidOf[lid] = Long.parseUnsignedLong(m.group(3), 16);
                    lineOf[lid] = reader.lineNumber();
                }
            }
        }
        reader.end();
        Map<Long, Port> portByGuid = new HashMap<>();
        for (Node n : f.nodes()) {
            for (int p = n.isSwitch() ? 0 : 1; p <= (n.isSwitch() ? 0 : n.numPorts()); p++) {
                portByGuid.put(n.port(p).guid(), n.port(p));
            }
        }
        int top = 0;
        for (SmOutputs.Routes r : routes) {
            top = Math.max(top, r.lft().length - 1);
        }
        Map<Long, Integer> index = new HashMap<>();
        SwitchGraph.Builder b = switches(f, top, index);
        for (int lid = 0; lid <= top; lid++) {
            if (lineOf[lid] == 0) {
                continue;
            }
            Port p = portByGuid.get(guidOf[lid]);
            if (p == null) {
                throw new FormatException(file, lineOf[lid], String.format("port GUID 0x%016x is not in the fabric",
                        guidOf[lid]));
            }
            place(b, index, p, lid, 1);
        }
        SwitchGraph g = b.build();
        byte[][] tables = new byte[g.switches()][];
        for (int i = 0; i < routes.size(); i++) {
            SmOutputs.Routes r = routes.get(i);
            Integer s = index.get(r.switchGuid());
            if (s == null) {
                throw new FormatException(file, r.line(), "switch GUID " + String.format("0x%016x", r.switchGuid())
                        + " is not in the fabric");
            }
            byte[] t = Lfts.empty(top);
            for (int lid = 0; lid < r.lft().length; lid++) {
                if (r.lft()[lid] >= 0) {
                    t[lid] = (byte) r.lft()[lid];
                }
            }
            tables[s] = t;
            routes.set(i, null);   // its int table is no longer needed
        }
        for (int s = 0; s < tables.length; s++) {
            if (tables[s] == null) {
                tables[s] = Lfts.empty(top);   // a switch the dump leaves out routes nothing
            }
        }
        return new Routed(g, new Lfts(tables, top));
    }

    /** The tables the switches hold, read through {@code fw} (live, by SMP), on the LIDs the ports carry. */
    static Routed live(Fabric f, LftRoutes.Forwarding fw) {
        int top = 0;
        for (Node n : f.nodes()) {
            for (int p = n.isSwitch() ? 0 : 1; p <= (n.isSwitch() ? 0 : n.numPorts()); p++) {
                top = Math.max(top, n.port(p).lid() + (1 << n.port(p).lmc()) - 1);
            }
        }
        Map<Long, Integer> index = new HashMap<>();
        SwitchGraph.Builder b = switches(f, top, index);
        Map<Integer, Port> byLid = new HashMap<>();
        for (Node n : f.nodes()) {
            for (int p = n.isSwitch() ? 0 : 1; p <= (n.isSwitch() ? 0 : n.numPorts()); p++) {
                Port port = n.port(p);
                if (port.lid() > 0) {
                    place(b, index, port, port.lid(), 1 << port.lmc());
                    byLid.put(port.lid(), port);
                }
            }
        }
        SwitchGraph g = b.build();
        List<Node> sws = f.switches();
        byte[][] tables = new byte[sws.size()][];
        for (int s = 0; s < sws.size(); s++) {
            byte[] t = Lfts.empty(top);
            for (Map.Entry<Integer, Port> e : byLid.entrySet()) {
                int port = fw.egressPort(sws.get(s), e.getValue());
                if (port >= 0 && port <= sws.get(s).numPorts()) {
                    t[e.getKey()] = (byte) port;
                }
            }
            tables[s] = t;
        }
        return new Routed(g, new Lfts(tables, top));
    }

    /** The graph with LIDs as an SM might give them: switches 1..S in order, then every linked CA port. */
    static SwitchGraph assigned(Fabric f) {
        int next = f.switches().size() + 1;
        int cas = 0;
        for (Node n : f.cas()) {
            cas += n.numPorts();
        }
        Map<Long, Integer> index = new HashMap<>();
        SwitchGraph.Builder b = switches(f, next + cas - 1, index);
        for (Node sw : f.switches()) {
            place(b, index, sw.port(0), index.get(sw.guid()) + 1, 1);
        }
        for (Node n : f.cas()) {
            for (int p = 1; p <= n.numPorts(); p++) {
                if (n.port(p).remote() != null) {
                    place(b, index, n.port(p), next++, 1);
                }
            }
        }
        return b.build();
    }
}
