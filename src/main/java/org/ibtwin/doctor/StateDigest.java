package org.ibtwin.doctor;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import org.ibtwin.model.Link;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.model.PortCounter;

/**
 * What a {@link FabricState} holds for the checks to read, folded into 64-bit digests in one pass: one of everything
 * but the counter readings (the model's nodes, ports, links and cables, the host facts, the SMs, partitions,
 * forwarding tables and what the source said about itself), and one a counter of every port's readings of it. Two
 * states with equal digests look the same to a check that reads only what they cover: {@link Doctor.Cache} keeps its
 * findings. The digests mix (multiply, xor-shift) every value in: strings character by character, other values (an
 * SM's record, a cable, an enum, a boxed number) by their hash codes, so two states that differ agree on a digest only
 * when their differing values' hash codes collide and the mix then does too.
 *
 * @param structure the digest of everything but the counter readings
 * @param counters  per counter, the digest of every port's readings of it (where, when, from which source)
 */
public record StateDigest(long structure, Map<PortCounter, Long> counters) {

    /** The digests of {@code s}. */
    public static StateDigest of(FabricState s) {
        Mix m = new Mix();
        m.add(s.topologyKnown()).add(s.lidsKnown()).add(s.portStatesKnown()).add(s.smLidsKnown()).add(s.mtusKnown())
                .add(s.pkeysKnown()).add(s.firmwareKnown()).add(s.smsComplete());
        m.add(s.source()).add(s.sms()).add(s.partitions() == null ? 0 : System.identityHashCode(s.partitions()))
                .add(s.duplicateGuids()).add(s.read()).add(s.ignored()).add(s.time());
        for (Node n : s.fabric().nodes()) {
            m.add(n.type().ordinal()).add(n.guid()).add(n.systemImageGuid()).add(n.name()).add(n.description())
                    .add(n.vendorId()).add(n.deviceId()).add(n.revision()).add(n.firmware()).add(n.enhancedPort0())
                    .add(n.hostFacts()).add(n.numPorts());
            byte[] lft = n.linearForwarding();
            m.add(lft == null ? 0 : Arrays.hashCode(lft));
            for (int i = 0; i <= n.numPorts(); i++) {
                Port p = n.port(i);
                if (p == null) {
                    m.add(-1);
                    continue;
                }
                m.add(p.guid()).add(p.lid()).add(p.lmc()).add(p.state()).add(p.physState()).add(p.widthSupported())
                        .add(p.widthEnabled()).add(p.widthActive()).add(p.speedSupported()).add(p.speedEnabled())
                        .add(p.speedActive()).add(p.mtuCap()).add(p.mtuActive()).add(p.vlCap())
                        .add(Arrays.hashCode(p.pkeys())).add(p.smLid()).add(p.capMask()).add(p.capMask2())
                        .add(p.linkLayer());
            }
        }
        for (Link l : s.fabric().links()) {
            m.add(l.a().node().guid()).add(l.a().number()).add(l.b().node().guid()).add(l.b().number())
                    .add(l.cable());
        }
        for (HostInfo h : s.hosts().values()) {
            m.add(h.host()).add(h.node() == null ? 0 : h.node().guid());
            for (HostInfo.Key k : HostInfo.Key.values()) {
                m.add(h.fact(k));
            }
            for (HostInfo.PortFacts p : h.ports().values()) {
                m.add(p.number).add(p.state).add(p.physState).add(p.rateGbps).add(p.width).add(p.speed).add(p.lid)
                        .add(p.smLid).add(p.linkLayer).add(p.activeMtu).add(p.maxMtu).add(p.portGuid).add(p.source);
            }
        }
        for (Map.Entry<Node, int[]> e : s.routes().entrySet()) {
            m.add(e.getKey().guid()).add(Arrays.hashCode(e.getValue()));
        }
        Map<PortCounter, Long> counters = new EnumMap<>(PortCounter.class);
        Mix[] per = new Mix[PortCounter.values().length];
        for (int i = 0; i < per.length; i++) {
            per[i] = new Mix();
        }
        for (PortCounters pc : s.counters().values()) {
            for (CounterReading r : pc.readings()) {
                long reading = new Mix().add(pc.where()).add(r.time()).add(r.source()).add(r.series()).h;
                for (Map.Entry<PortCounter, Long> v : r.values().entrySet()) {
                    per[v.getKey().ordinal()].add(reading).add(v.getValue().longValue());
                }
            }
        }
        for (PortCounter c : PortCounter.values()) {
            counters.put(c, per[c.ordinal()].h);
        }
        return new StateDigest(m.h, counters);
    }

    /** The digest of what a check reads: everything but the counters, and the counters it names. */
    long of(Iterable<PortCounter> read) {
        Mix m = new Mix().add(structure);
        for (PortCounter c : read) {
            m.add(c.ordinal()).add(counters.get(c));
        }
        return m.h;
    }

    /** A running 64-bit mix of values. */
    private static final class Mix {
        long h = 0x243f6a8885a308d3L;

        Mix add(long v) {
            h = (h ^ v) * 0x9e3779b97f4a7c15L;
            h ^= h >>> 31;
            return this;
        }

        Mix add(boolean b) {
            return add(b ? 1 : 2);
        }

        /** A string character by character, null as a value of its own. */
        Mix add(String s) {
            if (s == null) {
                return add(0x5bd1e995L);
            }
            add(s.length());
            for (int i = 0; i < s.length(); i++) {
                add((long) s.charAt(i));
            }
            return this;
        }

        /** Strings one by one. */
        Mix add(java.util.List<String> l) {
            if (l == null) {
                return add(0x5bd1e995L);
            }
            add(l.size());
            for (String s : l) {
                add(s);
            }
            return this;
        }

        /** Any other value (records, enums, numbers) by its hash code, null as a value of its own. */
        Mix add(Object o) {
            return add(o == null ? 0x5bd1e995L : 31L * o.hashCode() + 7);
        }
    }
}
