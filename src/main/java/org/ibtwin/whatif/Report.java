package org.ibtwin.whatif;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;

/**
 * What a rehearsed change does, most serious first: the SM locked out or gone, host pairs lost (by cause, each
 * group with an example and its route before and after), partitions, the SM's LIDs and LFTs, bandwidth, pairs
 * gained. {@link #text} and {@link #json} print the same facts; {@link #exitCode}: 0 nothing lost, 1 something is.
 */
public record Report(String fabric, List<String> changes, int hosts, long pairs, long reachableBefore,
                     long reachableAfter, List<Group> lost, List<Group> gained, List<String> smProblems,
                     long partitionNodes, List<String> partitionLines, List<String> ipoib, String smPortBefore,
                     String smPortAfter, String masterBefore, String masterAfter, long lidsChanged,
                     List<String> lidLines, long lftBlocks, int lftSwitches, Boolean creditLoopBefore,
                     Boolean creditLoopAfter, Bandwidth shift, Bandwidth allToAll, List<LinkRise> links,
                     List<String> notes) {

    /** Why a pair cannot talk. */
    public enum Cause {
        PORT_DOWN("port down"), NO_ROUTE("no route"), PARTITION("partition");

        private final String label;

        Cause(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** Host pairs lost (or gained) for one cause, with one example pair and its route before and after. */
    public record Group(Cause cause, long pairs, String example, String before, String after) {
    }

    /** A pattern's figures before and after: aggregate payload Gb/s, and the worst pair. */
    public record Bandwidth(String pattern, double aggregateBefore, double aggregateAfter, double worstBefore,
                            double worstAfter, String worstPairBefore, String worstPairAfter) {
    }

    /** A directed link whose load rises: all-to-all pairs and shift streams crossing it, before and after. */
    public record LinkRise(String link, long allToAllBefore, long allToAllAfter, long shiftBefore, long shiftAfter) {
    }

    public long lostPairs() {
        return lost.stream().mapToLong(Group::pairs).sum();
    }

    public long gainedPairs() {
        return gained.stream().mapToLong(Group::pairs).sum();
    }

    /** Whether the SM is gone or locked out after the change. */
    public boolean smLost() {
        return !smProblems.isEmpty();
    }

    /** 0: nothing lost; 1: host pairs, the SM or its reach lost. */
    public int exitCode() {
        return lostPairs() > 0 || smLost() ? 1 : 0;
    }

    /** The report as text, most serious first. */
    public String text() {
        StringBuilder b = new StringBuilder();
        b.append("ibtwin what-if: ").append(fabric).append(": ").append(String.join("; ", changes)).append('\n');
        for (String s : smProblems) {
            b.append("SM: ").append(s).append('\n');
        }
        long l = lostPairs();
        b.append(String.format(Locale.ROOT, "%s: %,d of %,d host pairs (%,d hosts; %,d pairs talk before, %,d after)%n",
                l > 0 ? "LOST" : "lost", l, pairs, hosts, reachableBefore, reachableAfter));
        groups(b, lost);
        b.append(String.format(Locale.ROOT, "gained: %,d host pairs%n", gainedPairs()));
        groups(b, gained);
        if (partitionNodes == 0) {
            b.append("partitions: no port's membership changes\n");
        } else {
            b.append(String.format(Locale.ROOT, "partitions: %,d ports change membership%n", partitionNodes));
            for (String s : partitionLines) {
                b.append("  ").append(s).append('\n');
            }
        }
        for (String s : ipoib) {
            b.append("  IPoIB ").append(s).append('\n');
        }
        b.append("  the SM's own port: ").append(smPortBefore).append(" -> ").append(smPortAfter).append('\n');
        b.append("SM: master before ").append(masterBefore == null ? "none" : masterBefore).append(", after ")
                .append(masterAfter == null ? "none" : masterAfter).append('\n');
        b.append(String.format(Locale.ROOT, "  LIDs that change: %,d%n", lidsChanged));
        for (String s : lidLines) {
            b.append("    ").append(s).append('\n');
        }
        b.append(String.format(Locale.ROOT, "  LFT blocks to write: %,d on %,d switches%n", lftBlocks, lftSwitches));
        b.append("  credit loop (channel dependency cycle) in the routes: before ").append(loop(creditLoopBefore))
                .append(", after ").append(loop(creditLoopAfter)).append('\n');
        for (Bandwidth w : new Bandwidth[] {shift, allToAll}) {
            if (w == null) {
                continue;
            }
            b.append(String.format(Locale.ROOT, "bandwidth (%s): aggregate %,.1f -> %,.1f Gb/s (%+.1f%%); worst pair "
                    + "%,.2f -> %,.2f Gb/s%n", w.pattern(), w.aggregateBefore(), w.aggregateAfter(),
                    percent(w.aggregateBefore(), w.aggregateAfter()), w.worstBefore(), w.worstAfter()));
            if (w.worstPairAfter() != null) {
                b.append("  worst pair after: ").append(w.worstPairAfter()).append('\n');
            }
        }
        if (!links.isEmpty()) {
            b.append("links whose load rises most (all-to-all pairs, shift streams crossing, before -> after):\n");
            for (LinkRise r : links) {
                b.append(String.format(Locale.ROOT, "  %-44s %,10d -> %,-10d %,5d -> %,d%n", r.link(),
                        r.allToAllBefore(), r.allToAllAfter(), r.shiftBefore(), r.shiftAfter()));
            }
        }
        for (String n : notes) {
            b.append("note: ").append(n).append('\n');
        }
        return b.toString();
    }

    private static void groups(StringBuilder b, List<Group> gs) {
        for (Group g : gs) {
            b.append(String.format(Locale.ROOT, "  %s: %,d pairs, e.g. %s%n", g.cause().label(), g.pairs(),
                    g.example()));
            b.append("    before: ").append(g.before()).append('\n');
            b.append("    after:  ").append(g.after()).append('\n');
        }
    }

    private static String loop(Boolean b) {
        return b == null ? "not known" : b ? "YES" : "none";
    }

    private static double percent(double a, double b) {
        return a == 0 ? 0 : (b - a) / a * 100;
    }

    /** The report as JSON. */
    public ObjectNode json() {
        ObjectNode j = JsonNodeFactory.instance.objectNode();
        j.put("fabric", fabric);
        ArrayNode c = j.putArray("changes");
        changes.forEach(c::add);
        j.put("exit", exitCode());
        ArrayNode sp = j.putArray("sm_problems");
        smProblems.forEach(sp::add);
        ObjectNode r = j.putObject("reachability");
        r.put("hosts", hosts);
        r.put("pairs", pairs);
        r.put("talk_before", reachableBefore);
        r.put("talk_after", reachableAfter);
        r.put("lost", lostPairs());
        r.put("gained", gainedPairs());
        groupsJson(r.putArray("lost_by_cause"), lost);
        groupsJson(r.putArray("gained_by_cause"), gained);
        ObjectNode p = j.putObject("partitions");
        p.put("ports_changed", partitionNodes);
        ArrayNode pl = p.putArray("ports");
        partitionLines.forEach(pl::add);
        ArrayNode ip = p.putArray("ipoib_groups");
        ipoib.forEach(ip::add);
        p.put("sm_port_before", smPortBefore);
        p.put("sm_port_after", smPortAfter);
        ObjectNode s = j.putObject("sm");
        s.put("master_before", masterBefore);
        s.put("master_after", masterAfter);
        s.put("lids_changed", lidsChanged);
        ArrayNode ll = s.putArray("lids");
        lidLines.forEach(ll::add);
        s.put("lft_blocks_to_write", lftBlocks);
        s.put("lft_switches", lftSwitches);
        if (creditLoopBefore != null) {
            s.put("credit_loop_before", creditLoopBefore);
        }
        if (creditLoopAfter != null) {
            s.put("credit_loop_after", creditLoopAfter);
        }
        ArrayNode bw = j.putArray("bandwidth");
        for (Bandwidth w : new Bandwidth[] {shift, allToAll}) {
            if (w == null) {
                continue;
            }
            ObjectNode o = bw.addObject();
            o.put("pattern", w.pattern());
            o.put("aggregate_Gb_per_sec_before", round(w.aggregateBefore()));
            o.put("aggregate_Gb_per_sec_after", round(w.aggregateAfter()));
            o.put("worst_pair_Gb_per_sec_before", round(w.worstBefore()));
            o.put("worst_pair_Gb_per_sec_after", round(w.worstAfter()));
            o.put("worst_pair_before", w.worstPairBefore());
            o.put("worst_pair_after", w.worstPairAfter());
        }
        ArrayNode lk = j.putArray("links_load_rising");
        for (LinkRise x : links) {
            ObjectNode o = lk.addObject();
            o.put("link", x.link());
            o.put("all_to_all_pairs_before", x.allToAllBefore());
            o.put("all_to_all_pairs_after", x.allToAllAfter());
            o.put("shift_streams_before", x.shiftBefore());
            o.put("shift_streams_after", x.shiftAfter());
        }
        ArrayNode n = j.putArray("notes");
        notes.forEach(n::add);
        return j;
    }

    private static void groupsJson(ArrayNode a, List<Group> gs) {
        for (Group g : gs) {
            ObjectNode o = a.addObject();
            o.put("cause", g.cause().label());
            o.put("pairs", g.pairs());
            o.put("example", g.example());
            o.put("route_before", g.before());
            o.put("route_after", g.after());
        }
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
