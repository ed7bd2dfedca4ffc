package org.ibtwin.cli;

import java.net.InetAddress;
import java.time.Duration;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Node;
import org.ibtwin.sim.IbsimServer;
import org.ibtwin.sim.Twin;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SmLog;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.transport.IbsimClient;

/**
 * Warms the JVM's JIT for serving a twin: a scratch twin of a small fat tree behind its own ibsim endpoint on an
 * ephemeral loopback port, brought up again and again by ibtwin's SM attached as a real client would be (every switch
 * rebooted between sweeps, so every sweep discovers, gives out LIDs, writes every LFT block and activates every
 * port). The twin that is then served is never touched. Without it a freshly started JVM answers the first few
 * thousand MADs in its interpreter, many times slower than later ones: a small fabric's whole sweep by a real SM.
 * What it costs is part of the simulator's start, before it says it is ready, as ibsim's own start is.
 */
final class TwinWarmup {
    private static final FatTreeSpec SCRATCH = FatTreeSpec.of(3, 8, 64).withSpeed(LinkSpeed.HDR);

    private TwinWarmup() {
    }

    /** Sweeps the scratch twin until {@code budget} is spent (at least one sweep); the time it took. */
    static Duration run(Duration budget) {
        long t0 = System.nanoTime();
        if (budget.isZero() || budget.isNegative()) {
            return Duration.ZERO;
        }
        Fabric f = FatTree.build(SCRATCH);
        Twin twin = Twin.of(f);
        try (IbsimServer server = new IbsimServer(name -> twin.attach(name, 0))) {
            server.start(InetAddress.getLoopbackAddress(), 0);
            try (IbsimClient c = IbsimClient.connect("127.0.0.1", server.port(), null, true, Duration.ofSeconds(2))) {
                SubnetManager sm = new SubnetManager(c, SmConfig.defaults(), SmLog.quiet());
                do {
                    sm.forgetLfts();
                    sm.sweep();
                    for (Node s : f.switches()) {
                        twin.rebootSwitch(s.name());
                    }
                } while (System.nanoTime() - t0 < budget.toNanos());
                sm.detach();
            }
        } catch (java.io.IOException | RuntimeException e) {
            // a warm-up that cannot run (no loopback port free, ...) only leaves the JVM cold
            System.getLogger(TwinWarmup.class.getName()).log(System.Logger.Level.DEBUG, "warm-up stopped", e);
        }
        return Duration.ofNanos(System.nanoTime() - t0);
    }
}
