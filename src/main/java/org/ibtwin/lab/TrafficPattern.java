package org.ibtwin.lab;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Function;
import org.ibtwin.format.FormatException;
import org.ibtwin.format.TrafficFile;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;

/**
 * Who sends to whom. The hosts are the CA ports with a link, in fabric order ({@code H} of them):
 * <ul>
 * <li>{@code pair SRC DST}: one flow;</li>
 * <li>{@code shift [K]}: every host {@code i} sends to host {@code (i+K) mod H} ({@code K} defaults to {@code H/2});</li>
 * <li>{@code permutation [SEED]}: a random permutation with no host sending to itself (Sattolo's shuffle, seeded:
 * the same seed gives the same flows; default 1);</li>
 * <li>{@code incast N [SINK]}: {@code N} hosts, spread evenly over the others, send to one ({@code SINK}, default
 * the first host);</li>
 * <li>{@code all-to-all}: every host sends to every other, as one collective ({@link TrafficEngine});</li>
 * <li>{@code file PATH}: the flows of a traffic file ({@link TrafficFile}: {@code src dst [rate]} lines).</li>
 * </ul>
 */
public record TrafficPattern(Kind kind, List<String> args) {
    public enum Kind {
        PAIR, SHIFT, PERMUTATION, INCAST, ALL_TO_ALL, FILE
    }

    public static final String USAGE = "pair SRC DST | shift [K] | permutation [SEED] | incast N [SINK] | all-to-all"
            + " | file PATH";

    public TrafficPattern {
        args = List.copyOf(args);
    }

    /** One flow from {@code src} to {@code dst}, capped at {@code gbps} (NaN: no cap of its own). */
    public record Pair(Port src, Port dst, double gbps) {
    }

    /**
     * The pattern of words {@code PATTERN [ARGS...]}.
     *
     * @throws IllegalArgumentException naming what is wrong, in one line
     */
    public static TrafficPattern parse(List<String> words) {
        if (words.isEmpty()) {
            throw new IllegalArgumentException("no pattern: " + USAGE);
        }
        String name = words.getFirst().toLowerCase(Locale.ROOT);
        List<String> a = words.subList(1, words.size());
        Kind k = switch (name) {
            case "pair" -> Kind.PAIR;
            case "shift" -> Kind.SHIFT;
            case "permutation", "perm" -> Kind.PERMUTATION;
            case "incast" -> Kind.INCAST;
            case "all-to-all", "alltoall", "a2a" -> Kind.ALL_TO_ALL;
            case "file" -> Kind.FILE;
            default -> throw new IllegalArgumentException("unknown pattern \"" + words.getFirst() + "\": " + USAGE);
        };
        int[] arity = switch (k) {
            case PAIR -> new int[] {2, 2};
            case SHIFT, PERMUTATION -> new int[] {0, 1};
            case INCAST -> new int[] {1, 2};
            case ALL_TO_ALL -> new int[] {0, 0};
            case FILE -> new int[] {1, 1};
        };
        if (a.size() < arity[0] || a.size() > arity[1]) {
            throw new IllegalArgumentException("usage: " + usageOf(k));
        }
        TrafficPattern p = new TrafficPattern(k, a);
        if (k == Kind.SHIFT && !a.isEmpty()) {
            p.number(0, "shift K");
        }
        if (k == Kind.PERMUTATION && !a.isEmpty()) {
            p.number(0, "permutation SEED");
        }
        if (k == Kind.INCAST && p.number(0, "incast N") < 1) {
            throw new IllegalArgumentException("incast N: N must be at least 1");
        }
        return p;
    }

    private static String usageOf(Kind k) {
        return switch (k) {
            case PAIR -> "pair SRC DST";
            case SHIFT -> "shift [K]";
            case PERMUTATION -> "permutation [SEED]";
            case INCAST -> "incast N [SINK]";
            case ALL_TO_ALL -> "all-to-all";
            case FILE -> "file PATH";
        };
    }

    private long number(int i, String what) {
        try {
            return Long.parseLong(args.get(i));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + ": \"" + args.get(i) + "\" is not a number");
        }
    }

    /** The text of the pattern as given: "shift 4". */
    public String label() {
        return (kind.name().toLowerCase(Locale.ROOT).replace('_', '-') + " " + String.join(" ", args)).strip();
    }

    /** The hosts traffic runs between: every CA port with a link, in fabric order. */
    public static List<Port> hosts(Fabric f) {
        List<Port> out = new ArrayList<>();
        for (Node n : f.nodes()) {
            if (n.isSwitch()) {
                continue;
            }
            for (int p = 1; p <= n.numPorts(); p++) {
                if (n.port(p).link() != null) {
                    out.add(n.port(p));
                }
            }
        }
        return out;
    }

    /**
     * The flows of the pattern (none for all-to-all, which the engine runs as one collective).
     *
     * @param hosts the hosts ({@link #hosts})
     * @param host  a host by name (topology id, description or host name); throws IllegalArgumentException
     */
    public List<Pair> pairs(List<Port> hosts, Function<String, Port> host) {
        int h = hosts.size();
        if (kind != Kind.FILE && kind != Kind.PAIR && h < 2) {
            throw new IllegalArgumentException(label() + " needs at least 2 hosts, the fabric has " + h);
        }
        List<Pair> out = new ArrayList<>();
        switch (kind) {
            case PAIR -> {
                Port a = host.apply(args.get(0));
                Port b = host.apply(args.get(1));
                if (a == b) {
                    throw new IllegalArgumentException("pair: a flow from " + args.get(0) + " to itself");
                }
                out.add(new Pair(a, b, Double.NaN));
            }
            case SHIFT -> {
                long k = args.isEmpty() ? h / 2 : number(0, "shift K");
                int s = (int) Math.floorMod(k, (long) h);
                if (s == 0) {
                    throw new IllegalArgumentException("shift " + k + " sends every host to itself (" + h
                            + " hosts)");
                }
                for (int i = 0; i < h; i++) {
                    out.add(new Pair(hosts.get(i), hosts.get((i + s) % h), Double.NaN));
                }
            }
            case PERMUTATION -> {
                long seed = args.isEmpty() ? 1 : number(0, "permutation SEED");
                int[] to = new int[h];
                for (int i = 0; i < h; i++) {
                    to[i] = i;
                }
                Random r = new Random(seed);
                for (int i = h - 1; i > 0; i--) {    // Sattolo: one cycle, so nobody maps to itself
                    int j = r.nextInt(i);
                    int t = to[i];
                    to[i] = to[j];
                    to[j] = t;
                }
                for (int i = 0; i < h; i++) {
                    out.add(new Pair(hosts.get(i), hosts.get(to[i]), Double.NaN));
                }
            }
            case INCAST -> {
                long n = number(0, "incast N");
                Port sink = args.size() > 1 ? host.apply(args.get(1)) : hosts.getFirst();
                List<Port> others = new ArrayList<>(hosts);
                others.remove(sink);
                if (n > others.size()) {
                    throw new IllegalArgumentException("incast " + n + ": only " + others.size()
                            + " other hosts");
                }
                for (int i = 0; i < n; i++) {
                    out.add(new Pair(others.get((int) (i * (long) others.size() / n)), sink, Double.NaN));
                }
            }
            case FILE -> {
                List<TrafficFile.Line> lines;
                try {
                    lines = TrafficFile.read(Path.of(args.getFirst()));
                } catch (FormatException e) {
                    throw new IllegalArgumentException(e.getMessage(), e);
                }
                for (TrafficFile.Line l : lines) {
                    Port a;
                    Port b;
                    try {
                        a = host.apply(l.src());
                        b = host.apply(l.dst());
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(args.getFirst() + ":" + l.line() + ": " + e.getMessage(),
                                e);
                    }
                    if (a == b) {
                        throw new IllegalArgumentException(args.getFirst() + ":" + l.line() + ": a flow from "
                                + l.src() + " to itself");
                    }
                    out.add(new Pair(a, b, l.gbps() == null ? Double.NaN : l.gbps()));
                }
            }
            case ALL_TO_ALL -> {
            }
        }
        return out;
    }
}
