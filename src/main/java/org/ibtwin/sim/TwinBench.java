package org.ibtwin.sim;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.MgmtClasses;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.ibtwin.transport.MadAddress;

/**
 * In-process SMP throughput: directed-route NodeInfo Gets from the first host to random nodes of a fat tree, through
 * an {@link Attachment} (the twin alone) and through {@link TwinTransport} (what an in-process SM sees), single
 * threaded; and the heap the twin takes on top of its model.
 *
 * <pre>java -cp target/classes org.ibtwin.sim.TwinBench [levels radix hosts [seconds]]</pre>
 * Defaults: a 3-level radix-40 tree of 16,000 hosts, 3 s a measurement.
 */
public final class TwinBench {

    /** What a run measured. */
    public record Result(int nodes, int switches, long modelBytes, long twinBytes, double avgHops,
                         double attachmentMadsPerSecond, double transportMadsPerSecond) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%,d nodes (%,d switches); heap: model %.1f MiB, twin %.1f MiB;"
                            + " DR NodeInfo, %.1f hops on average: %,.0f MADs/s (attachment), %,.0f MADs/s"
                            + " (TwinTransport)", nodes, switches, modelBytes / 1048576.0, twinBytes / 1048576.0,
                    avgHops, attachmentMadsPerSecond, transportMadsPerSecond);
        }
    }

    private TwinBench() {
    }

    public static void main(String[] args) {
        int levels = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int radix = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        int hosts = args.length > 2 ? Integer.parseInt(args[2]) : 16000;
        int seconds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        System.out.println(run(FatTreeSpec.of(levels, radix, hosts), Duration.ofSeconds(seconds)));
    }

    public static Result run(FatTreeSpec spec, Duration each) {
        long h0 = usedHeap();
        Fabric fabric = FatTree.build(spec);
        long h1 = usedHeap();
        Twin twin = Twin.of(fabric);
        long h2 = usedHeap();

        Node from = fabric.cas().get(0);
        Map<Node, int[]> paths = paths(from);
        Node[] all = fabric.nodes().toArray(new Node[0]);
        Random rnd = new Random(42);
        int n = 4096;
        byte[][] mads = new byte[n][];
        long hops = 0;
        for (int i = 0; i < n; i++) {
            int[] path = paths.get(all[rnd.nextInt(all.length)]);
            hops += path.length;
            mads[i] = nodeInfo(path);
        }

        Attachment a = twin.attach(from.name(), 1);
        long[] answers = new long[1];
        a.onReceive((mad, f) -> answers[0]++);
        MadAddress dr = MadAddress.directed();
        Measure raw = () -> {
            long done = 0;
            for (int r = 0; r < 256; r++) {
                for (byte[] m : mads) {
                    a.send(m, dr);
                }
                done += mads.length;
            }
            return done;
        };
        rate(raw, each);                       // warm-up
        long before = answers[0];
        double rawRate = rate(raw, each);
        if (answers[0] == before) {
            throw new IllegalStateException("no answers");
        }
        a.detach();

        TwinTransport t = new TwinTransport(twin.attach(from.name(), 1));
        Duration timeout = Duration.ofMillis(100);
        Measure viaTransport = () -> {
            long done = 0;
            for (int r = 0; r < 64; r++) {
                for (byte[] m : mads) {
                    byte[] mad = m.clone();
                    long tid = t.nextTid();
                    for (int k = 7; k >= 0; k--, tid >>>= 8) {
                        mad[8 + k] = (byte) tid;
                    }
                    t.call(mad, dr, timeout, 0);
                }
                done += mads.length;
            }
            return done;
        };
        rate(viaTransport, each);
        double transportRate = rate(viaTransport, each);
        t.close();
        return new Result(twin.nodeCount(), twin.switchCount(), h1 - h0, h2 - h1, (double) hops / n, rawRate,
                transportRate);
    }

    @FunctionalInterface
    private interface Measure {
        long batch();
    }

    private static double rate(Measure m, Duration each) {
        long end = System.nanoTime() + each.toNanos();
        long start = System.nanoTime();
        long done = 0;
        while (System.nanoTime() < end) {
            done += m.batch();
        }
        return done * 1e9 / (System.nanoTime() - start);
    }

    private static byte[] nodeInfo(int[] path) {
        byte[] m = new byte[MadHeaders.MAD_SIZE];
        m[0] = 1;
        m[1] = (byte) MgmtClasses.SUBN_DIRECTED;
        m[2] = 1;
        m[3] = Methods.GET;
        m[7] = (byte) path.length;
        m[16] = (byte) (AttributeIds.NODE_INFO >> 8);
        m[17] = (byte) AttributeIds.NODE_INFO;
        m[32] = (byte) 0xff;
        m[33] = (byte) 0xff;
        m[34] = (byte) 0xff;
        m[35] = (byte) 0xff;
        for (int i = 0; i < path.length; i++) {
            m[Forwarding.INITIAL_PATH + 1 + i] = (byte) path[i];
        }
        return m;
    }

    /** Shortest directed routes from a CA's port 1 to every node. */
    private static Map<Node, int[]> paths(Node start) {
        Map<Node, int[]> paths = new HashMap<>();
        paths.put(start, new int[0]);
        ArrayDeque<Node> q = new ArrayDeque<>();
        Node first = start.port(1).remote().node();
        paths.put(first, new int[] {1});
        q.add(first);
        while (!q.isEmpty()) {
            Node n = q.poll();
            int[] base = paths.get(n);
            for (int p = 1; p <= n.numPorts(); p++) {
                Port r = n.port(p).remote();
                if (r == null || paths.containsKey(r.node())) {
                    continue;
                }
                int[] path = java.util.Arrays.copyOf(base, base.length + 1);
                path[base.length] = p;
                paths.put(r.node(), path);
                if (r.node().isSwitch()) {
                    q.add(r.node());
                }
            }
        }
        return paths;
    }

    private static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
