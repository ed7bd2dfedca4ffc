package org.ibtwin.sm;

import java.util.ArrayList;
import java.util.List;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.transport.Smp;
import org.ibtwin.transport.SmpPipe;

/**
 * The SL2VL writer: when the routing engine spreads routes over several virtual lanes (its paths' SL is the lane),
 * programs the SLtoVLMappingTable (SubnSet SLtoVLMappingTable) of every port so that SL n travels on VL n for the
 * lanes in use and every other SL on VL 0: on each CA at the port the SM reaches it by, and on each switch for every
 * pair of an input port (port 0 included) and a different, linked output port (modifier input &lt;&lt; 8 | output).
 * With one lane and QoS off nothing is written.
 *
 * <p>With QoS on ({@link #writeQos}, OpenSM's {@code -Q}) it programs, after the ports are up, what
 * {@link QosConfig} asks for each port class, as OpenSM's QoS manager does: on every linked switch external port
 * the VLArbitration blocks of the {@code qos_swe_} tables, and the {@code qos_swe_} SLtoVLMappingTable for every
 * input port (port 0 and unlinked ones too) to it and, on a switch with enhanced port 0, to port 0; then on an
 * enhanced port 0 the {@code qos_sw0_} VLArbitration and SL2VL (in 0, out 0, written last); on each CA port the {@code qos_ca_}
 * ones, on routers {@code qos_rtr_}. A VLArbitration block is written for each part of the table the port's
 * VLArbLowCap and VLArbHighCap cover, none on a port with one data VL; VLs are masked to the port's operational
 * VLs as OpenSM masks them (VL15 stays VL15); SL2VL only where the port (port 0's on a switch) has
 * IsSLMappingSupported. An engine that spreads routes over lanes keeps them deadlock-free as OpenSM's torus-2QoS
 * does through its SL2VL hook: SL n goes on VL n for its lanes whatever QoS asked, the other SLs as QoS asked. A
 * table written before and unchanged is not written again (until {@link #forget}).
 */
final class Sl2VlWriter {
    /** What one pass wrote. */
    record Result(long tables, List<String> failures) {
    }

    /** PortInfo CapabilityMask IsSLMappingSupported. */
    static final long CAP_SL_MAP = 0x40;

    /** What was written, per node GUID: (attribute << 24 | modifier) to the bytes; a QoS pass skips the same. */
    private final java.util.Map<Long, java.util.Map<Long, byte[]>> written = new java.util.HashMap<>();

    /** Forgets what was written, so the next QoS pass writes every table again. */
    void forget() {
        written.clear();
    }

    /** What one QoS pass did. */
    record QosResult(long sl2vlWritten, long vlArbWritten, long unchanged, List<String> failures) {
    }

    /**
     * The VLHighLimit QoS sets on port {@code g}: its class's high_limit, 0 on a port with one data VL, -1 (left
     * alone) for a switch's base port 0 and unlinked switch ports.
     */
    static int highLimit(Topology t, QosConfig qos, int g) {
        int n = t.portNode(g);
        int p = t.portNumber(g);
        QosConfig.PortClass c;
        if (t.isSwitch(n)) {
            if (p == 0 ? !t.enhancedPort0(t.switchIndex(n)) : t.remote(g) < 0) {
                return -1;
            }
            c = p == 0 ? QosConfig.PortClass.SWITCH_PORT0 : QosConfig.PortClass.SWITCH_EXTERNAL;
        } else {
            c = t.nodeType(n) == org.ibtwin.model.NodeType.ROUTER ? QosConfig.PortClass.ROUTER
                    : QosConfig.PortClass.CA;
        }
        return t.vlCap(g) == 1 ? 0 : qos.highLimit(c);
    }

    /** The 8-byte table: SL 2i in the high nibble of byte i, SL 2i+1 in the low one. */
    static byte[] table(int lanes) {
        byte[] t = new byte[Smp.DATA_SIZE];
        for (int sl = 0; sl < 16; sl++) {
            int vl = sl < lanes ? sl : 0;
            t[sl / 2] |= (byte) (sl % 2 == 0 ? vl << 4 : vl);
        }
        return t;
    }

    Result write(Topology t, int lanes, SmpPipe pipe) {
        List<String> failures = new ArrayList<>();
        if (lanes <= 1) {
            return new Result(0, failures);
        }
        byte[] table = table(lanes);
        long[] sent = {0};
        for (int n = 0; n < t.nodeCount(); n++) {
            byte[] path = t.path(n);
            if (path == null) {
                continue;
            }
            String name = t.shortName(n);
            if (!t.isSwitch(n)) {
                set(pipe, path, 0, table, name, failures, sent);
                continue;
            }
            int ports = t.numPorts(n);
            for (int out = 1; out <= ports; out++) {
                if (t.remote(t.port(n, out)) < 0) {
                    continue;
                }
                for (int in = 0; in <= ports; in++) {
                    if (in != out && (in == 0 || t.remote(t.port(n, in)) >= 0)) {
                        set(pipe, path, (in << 8) | out, table, name, failures, sent);
                    }
                }
            }
        }
        pipe.drain();
        return new Result(sent[0], failures);
    }

    private static void set(SmpPipe pipe, byte[] path, long mod, byte[] table, String name, List<String> failures,
                            long[] sent) {
        sent[0]++;
        pipe.set(path, AttributeIds.SL_TO_VL_TABLE, mod, table.clone(), r -> {
            if (!r.ok() && failures.size() < 10) {
                failures.add("SLtoVLMappingTable (in " + (mod >> 8) + ", out " + (mod & 0xff) + ") on " + name + ": "
                        + r.why());
            }
        });
    }

    /**
     * The QoS pass: {@code portInfo} is each port's PortInfo after the port activator (its OperationalVLs and caps).
     */
    QosResult writeQos(Topology t, QosConfig qos, int lanes, byte[][] portInfo, SmpPipe pipe) {
        List<String> failures = new ArrayList<>();
        long[] counts = new long[3];
        for (int n = 0; n < t.nodeCount(); n++) {
            if (t.path(n) == null) {
                continue;
            }
            long guid = t.nodeGuid(n);
            String name = t.shortName(n);
            if (t.isSwitch(n)) {
                QosConfig.Tables swe = qos.tables(QosConfig.PortClass.SWITCH_EXTERNAL);
                byte[] path = t.path(n);
                int ports = t.numPorts(n);
                byte[] pi0 = portInfo[t.port(n, 0)];
                boolean slMap = pi0 != null && (Topology.PI_CAP_MASK.get(pi0, 0) & CAP_SL_MAP) != 0;
                int s = t.switchIndex(n);
                for (int out = 1; out <= ports; out++) {
                    int g = t.port(n, out);
                    if (t.remote(g) >= 0 && portInfo[g] != null) {
                        vlArb(pipe, path, out, portInfo[g], swe, guid, name, failures, counts);
                    }
                }
                // SL2VL as OpenSM writes it: for every input port (linked or not) to each output port that is up,
                // port 0 among the outputs where it is enhanced
                for (int out = t.enhancedPort0(s) ? 0 : 1; out <= ports && slMap; out++) {
                    int g = t.port(n, out);
                    if (out != 0 && t.remote(g) < 0 || portInfo[g] == null) {
                        continue;
                    }
                    byte[] table = mask(laned(swe.sl2vl(), lanes), portInfo[g]);
                    for (int in = 0; in <= ports; in++) {
                        if (in != 0 || out != 0) {   // (0, 0) is port 0's own, qos_sw0_'s
                            sl2vl(pipe, path, (in << 8) | out, table, guid, name, failures, counts);
                        }
                    }
                }
                if (t.enhancedPort0(s) && pi0 != null) {
                    QosConfig.Tables sw0 = qos.tables(QosConfig.PortClass.SWITCH_PORT0);
                    vlArb(pipe, path, 0, pi0, sw0, guid, name, failures, counts);
                    if (slMap) {
                        sl2vl(pipe, path, 0, mask(laned(sw0.sl2vl(), lanes), pi0), guid, name, failures, counts);
                    }
                }
                continue;
            }
            QosConfig.Tables c = qos.tables(t.nodeType(n) == org.ibtwin.model.NodeType.ROUTER
                    ? QosConfig.PortClass.ROUTER : QosConfig.PortClass.CA);
            for (int p = 1; p <= t.numPorts(n); p++) {
                int g = t.port(n, p);
                byte[] pi = portInfo[g];
                byte[] path = caPortPath(t, g);
                if (pi == null || path == null) {
                    continue;
                }
                long key = guid ^ ((long) p << 56);   // each CA port's tables apart (a CA's modifier is 0)
                vlArb(pipe, path, 0, pi, c, key, name + "/" + p, failures, counts);
                if ((Topology.PI_CAP_MASK.get(pi, 0) & CAP_SL_MAP) != 0) {
                    sl2vl(pipe, path, 0, mask(laned(c.sl2vl(), lanes), pi), key, name + "/" + p, failures, counts);
                }
            }
        }
        pipe.drain();
        return new QosResult(counts[0], counts[1], counts[2], failures);
    }

    /** The path that reaches CA port {@code g} (through the switch port facing it), or null when none is known. */
    private static byte[] caPortPath(Topology t, int g) {
        if (g == t.smPort()) {
            return t.path(t.portNode(g));
        }
        int r = t.remote(g);
        if (r < 0) {
            return null;
        }
        int sw = t.portNode(r);
        if (!t.isSwitch(sw)) {
            return t.path(t.portNode(g));
        }
        byte[] p = t.path(sw);
        byte[] out = java.util.Arrays.copyOf(p, p.length + 1);
        out[p.length] = (byte) t.portNumber(r);
        return out;
    }

    /** The engine's lanes over QoS's table: SL n on VL n for n below {@code lanes}. */
    static byte[] laned(byte[] sl2vl, int lanes) {
        byte[] t = sl2vl.clone();
        for (int sl = 0; sl < Math.min(lanes <= 1 ? 0 : lanes, 16); sl++) {
            t[sl / 2] = (byte) (sl % 2 == 0 ? (t[sl / 2] & 0x0f) | (sl << 4) : (t[sl / 2] & 0xf0) | sl);
        }
        return t;
    }

    /** The VL mask of a port: its OperationalVLs code k gives (1 << (k - 1)) - 1, as OpenSM computes it. */
    private static int vlMask(byte[] pi) {
        int k = (int) Topology.PI_OPER_VLS.get(pi, 0);
        return k < 1 ? 0 : (1 << (k - 1)) - 1;
    }

    static byte[] mask(byte[] sl2vl, byte[] pi) {
        int m = vlMask(pi);
        byte[] t = new byte[Smp.DATA_SIZE];
        for (int i = 0; i < 8; i++) {
            int a = (sl2vl[i] >> 4) & 0xf;
            int b = sl2vl[i] & 0xf;
            t[i] = (byte) (((a == 15 ? 15 : a & m) << 4) | (b == 15 ? 15 : b & m));
        }
        return t;
    }

    private void vlArb(SmpPipe pipe, byte[] path, int port, byte[] pi, QosConfig.Tables q, long guid, String name,
                       List<String> failures, long[] counts) {
        if (Topology.PI_VL_CAP.get(pi, 0) == 1) {
            return;   // one data VL: nothing to arbitrate
        }
        int m = vlMask(pi);
        int lowCap = (int) Topology.PI.get(pi, 0, "VLArbLowCap");
        int highCap = (int) Topology.PI.get(pi, 0, "VLArbHighCap");
        for (int block = 1; block <= 4; block++) {
            boolean high = block > 2;
            int cap = high ? highCap : lowCap;
            int first = (block - 1) % 2 * 32;
            if (cap <= first) {
                continue;
            }
            int len = Math.min(32, cap - first);
            byte[] src = high ? q.high() : q.low();
            byte[] data = new byte[Smp.DATA_SIZE];
            for (int i = 0; i < len; i++) {
                data[2 * i] = (byte) (src[2 * (first + i)] & m);
                data[2 * i + 1] = src[2 * (first + i) + 1];
            }
            long mod = ((long) block << 16) | port;
            send(pipe, path, AttributeIds.VL_ARB_TABLE, mod, data, guid, "VLArbitration block " + block + " port "
                    + port, name, failures, counts, 1);
        }
    }

    private void sl2vl(SmpPipe pipe, byte[] path, long mod, byte[] table, long guid, String name,
                       List<String> failures, long[] counts) {
        send(pipe, path, AttributeIds.SL_TO_VL_TABLE, mod, table, guid, "SLtoVLMappingTable (in " + (mod >> 8)
                + ", out " + (mod & 0xff) + ")", name, failures, counts, 0);
    }

    private void send(SmpPipe pipe, byte[] path, int attr, long mod, byte[] data, long guid, String what, String name,
                      List<String> failures, long[] counts, int slot) {
        java.util.Map<Long, byte[]> mine = written.computeIfAbsent(guid, g -> new java.util.HashMap<>());
        long key = ((long) attr << 24) | mod;
        if (java.util.Arrays.equals(mine.get(key), data)) {
            counts[2]++;
            return;
        }
        counts[slot]++;
        mine.put(key, data);
        pipe.set(path, attr, mod, data.clone(), r -> {
            if (!r.ok()) {
                mine.remove(key);   // written again next sweep
                if (failures.size() < 10) {
                    failures.add(what + " on " + name + ": " + r.why());
                }
            }
        });
    }
}
