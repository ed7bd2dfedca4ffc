package org.ibtwin.cli;

import java.net.InetAddress;
import java.time.Duration;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeType;
import org.ibtwin.sim.IbsimServer;
import org.ibtwin.sim.Twin;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SmLog;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.sm.Topology;
import org.ibtwin.transport.IbsimClient;
import org.ibtwin.transport.SmpPipe;

/**
 * Warms the JVM's JIT for serving a twin: a scratch twin of a small fat tree behind its own ibsim endpoint on an
 * ephemeral loopback port, brought up again and again by ibtwin's SM attached as a real client would be (every switch
 * rebooted between sweeps, so every sweep discovers, gives out LIDs, writes every LFT block and activates every
 * port). The twin that is then served is never touched. Without it a freshly started JVM answers the first few
 * thousand MADs in its interpreter, many times slower than later ones: a small fabric's whole sweep by a real SM.
 * What it costs is part of the simulator's start, before it says it is ready, as ibsim's own start is.
 */
final class TwinWarmup {
    private static final FatTreeSpec SCRATCH = FatTreeSpec.of(3, 16, 512).withSpeed(LinkSpeed.HDR);

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
                SmpPipe pipe = new SmpPipe(c, 4, Duration.ofMillis(200), 1);
                do {
                    sm.forgetLfts();
                    sm.sweep();
                    echoOthers(pipe, sm.topology());
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

    /**
     * What other SMs (OpenSM) read and set that ibtwin's SM leaves alone, so that it is compiled too: on every
     * port, SL2VL, VLArbitration (its four blocks), the first P_Key block and MlnxExtPortInfo; on switches the first
     * MFT block, on CAs GUIDInfo; each read and written back unchanged.
     */
    private static void echoOthers(SmpPipe pipe, Topology t) {
        for (int n = 0; n < t.nodeCount(); n++) {
            byte[] path = t.path(n);
            boolean sw = t.nodeType(n) == NodeType.SWITCH;
            echo(pipe, path, sw ? AttributeIds.MCAST_FWD_TABLE : AttributeIds.GUID_INFO, 0);
            for (int p = sw ? 0 : 1; p <= t.numPorts(n); p++) {
                echo(pipe, path, AttributeIds.SL_TO_VL_TABLE, sw ? (p << 8) | p : 0);
                for (int block = 1; block <= 4; block++) {
                    echo(pipe, path, AttributeIds.VL_ARB_TABLE, (block << 16) | p);
                }
                echo(pipe, path, AttributeIds.P_KEY_TABLE, sw ? p << 16 : 0);
                pipe.get(path, AttributeIds.MLNX_EXT_PORT_INFO, p, r -> { });
            }
        }
        pipe.drain();
    }

    private static void echo(SmpPipe pipe, byte[] path, int attr, long modifier) {
        pipe.get(path, attr, modifier, r -> {
            if (r.ok()) {
                pipe.set(path, attr, modifier, r.data(), done -> { });
            }
        });
    }
}
