package org.ibtwin.bench;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.Locale;
import org.ibtwin.diag.NetDiscovery;
import org.ibtwin.diag.NetFabric;
import org.ibtwin.diag.NetNode;
import org.ibtwin.diag.NetOutputs;
import org.ibtwin.format.NodeNameMap;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.lab.Lab;
import org.ibtwin.sim.Twin;
import org.ibtwin.sim.TwinTransport;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SmLog;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.sm.SweepReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin bench ibnetdiscover}: ibnetdiscover's and iblinkinfo's scan of a generated fat tree (3 levels,
 * 16,384 hosts by default) in process: the twin brought up by ibtwin's SM, then {@link NetDiscovery} from another
 * host, as libibnetdisc scans (2 SMPs in flight by default), the topology and iblinkinfo's lines written from what
 * it found; wall time, SMPs and SMPs/s of each scan, and the heap the scan's result holds.
 */
@Command(name = "ibnetdiscover", mixinStandardHelpOptions = true,
        description = "ibnetdiscover's and iblinkinfo's scan of an in-process fat tree: time, SMPs/s, heap.")
public final class BenchIbnetdiscoverCommand extends Bench {

    @Mixin
    FatTreeShape shape;

    @Option(names = {"-o", "--outstanding_smps"}, defaultValue = "2",
            description = "SMPs in flight during the scans (default: ${DEFAULT-VALUE}, libibnetdisc's).")
    int maxSmps;

    @Option(names = "--runs", defaultValue = "2", description = "Scans of each kind; the first warms the JIT "
            + "(default: ${DEFAULT-VALUE}).")
    int runs;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Fabric fabric = FatTree.build(shape.spec(LinkSpeed.NDR));
        SweepReport up;
        Twin twin;
        try (Lab lab = Lab.of(fabric).sm(SmConfig.defaults().withSweepInterval(Duration.ZERO), SmLog.quiet())
                .smAt(fabric.cas().get(0).name()).start()) {
            twin = lab.twin();
            up = lab.bringUp();
        }
        out.printf(Locale.ROOT, "%d-level fat tree, radix %d: %,d hosts, %,d switches, %,d links; brought up by "
                + "ibtwin's SM in %.3f s (%s)%n", shape.levels(), shape.radix(), shape.hosts(),
                fabric.switches().size(),
                fabric.links().size(), up.total().toNanos() / 1e9, up.subnetUp() ? "SUBNET UP" : "NOT UP");
        out.flush();
        if (!up.subnetUp()) {
            return 1;
        }
        String from = fabric.cas().get(fabric.cas().size() - 1).name();
        NetOutputs o = new NetOutputs(NodeNameMap.empty());
        NetFabric f = null;
        for (int r = 1; r <= Math.max(1, runs); r++) {
            long h0 = Jvm.usedHeapAfterGc();
            long t0 = System.nanoTime();
            try (TwinTransport t = new TwinTransport(twin.attach(from, 0))) {
                f = NetDiscovery.discover(t, NetDiscovery.Config.defaults().withMaxSmps(maxSmps));
            }
            long t1 = System.nanoTime();
            StringBuilder topo = new StringBuilder(1 << 20);
            o.topology(f, ZonedDateTime.now(), false, false, false, topo);
            long t2 = System.nanoTime();
            StringBuilder links = new StringBuilder(1 << 20);
            NetOutputs.LinkOptions lo = new NetOutputs.LinkOptions(false, false, false, null);
            for (NetNode n : f.nodes()) {
                o.linkNode(n, lo, "", links);
            }
            long t3 = System.nanoTime();
            long h1 = Jvm.usedHeapAfterGc();
            double scan = (t1 - t0) / 1e9;
            out.printf(Locale.ROOT, "run %d: scan from %s: %,d nodes, %,d links in %.3f s (%,d SMPs, %,.0f SMPs/s, "
                    + "%d in flight, %d hops)%n", r, from, f.size(), f.links().size(), scan, f.smps(),
                    f.smps() / scan, maxSmps, f.maxHopsDiscovered());
            out.printf(Locale.ROOT, "  ibnetdiscover: scan + topology %.3f s (%,d bytes written in %.3f s)%n",
                    (t2 - t0) / 1e9, topo.length(), (t2 - t1) / 1e9);
            out.printf(Locale.ROOT, "  iblinkinfo: scan + lines %.3f s (%,d bytes written in %.3f s)%n",
                    (t1 - t0 + t3 - t2) / 1e9, links.length(), (t3 - t2) / 1e9);
            out.printf(Locale.ROOT, "  heap: the scan's result %.1f MiB%n", (h1 - h0) / 1048576.0);
            out.flush();
        }
        return f != null && f.size() == fabric.size() ? 0 : 1;
    }
}
