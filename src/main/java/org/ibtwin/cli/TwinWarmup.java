package org.ibtwin.cli;

import java.time.Duration;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeType;
import org.ibtwin.sim.AttachPoint;
import org.ibtwin.sim.IbsimServer;
import org.ibtwin.sim.Twin;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SmLog;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.sm.Topology;
import org.ibtwin.transport.IbsimClient;
import org.ibtwin.transport.SmpPipe;

/**
 * Warms the JVM's JIT for serving a twin, through the very ibsim endpoint that will serve it: a scratch twin of a
 * 512-host 3-level fat tree is attached behind the endpoint under a node name no fabric has ({@link #NODE}), and
 * ibtwin's SM, attached there as a real client would be, brings it up again and again (every switch rebooted between
 * sweeps, so every sweep discovers, gives out LIDs, writes every LFT block and activates every port; and the tables
 * other SMs set read and written back). The endpoint's own threads and code paths are the ones compiled, so a real
 * SM's first sweep meets compiled code; the twin that is served is never touched. Without it a freshly started JVM
 * answers the first few thousand MADs in its interpreter, many times slower than later ones. What it costs is part
 * of the simulator's start, before it says it is ready, as ibsim's own start is.
 */
final class TwinWarmup {
    /** The node name the warm-up client attaches at: the scratch twin's first CA. */
    static final String NODE = "(ibtwin warm-up)";
    private static final FatTreeSpec SCRATCH = FatTreeSpec.of(3, 16, 512).withSpeed(LinkSpeed.HDR);

    private final AttachPoint served;
    private volatile Twin scratch;

    private TwinWarmup(AttachPoint served) {
        this.served = served;
    }

    /** Where the endpoint attaches its clients: {@code served}, but {@link #NODE} to the scratch twin meanwhile. */
    static TwinWarmup around(AttachPoint served) {
        return new TwinWarmup(served);
    }

    /** The attach point to give the endpoint. */
    AttachPoint attachPoint() {
        return name -> {
            Twin s = scratch;
            return s != null && NODE.equals(name) ? s.attach(null, 0) : served.attach(name);
        };
    }

    /** What a warm-up did: how long it took, its sweeps, how many brought the scratch twin up. */
    record Result(Duration took, int sweeps, int up) {
    }

    /**
     * Sweeps the scratch twin through {@code endpoint} (which must have been made with {@link #attachPoint}) until
     * {@code budget} is spent (at least one sweep).
     */
    Result run(IbsimServer endpoint, Duration budget) {
        long t0 = System.nanoTime();
        int sweeps = 0;
        int up = 0;
        if (budget.isZero() || budget.isNegative()) {
            return new Result(Duration.ZERO, 0, 0);
        }
        Fabric f = FatTree.build(SCRATCH);
        Twin twin = Twin.of(f);
        scratch = twin;
        try (IbsimClient c = IbsimClient.connect(endpoint.address().getAddress().getHostAddress(), endpoint.port(),
                NODE, true, Duration.ofSeconds(2))) {
            SubnetManager sm = new SubnetManager(c, SmConfig.defaults(), SmLog.quiet());
            SmpPipe pipe = new SmpPipe(c, 4, Duration.ofMillis(200), 1);
            do {
                sm.forgetLfts();
                sweeps++;
                up += sm.sweep().subnetUp() ? 1 : 0;
                echoOthers(pipe, sm.topology());
                for (Node s : f.switches()) {
                    twin.rebootSwitch(s.name());
                }
            } while (System.nanoTime() - t0 < budget.toNanos());
            sm.detach();
        } catch (RuntimeException e) {
            // a warm-up that cannot run only leaves the JVM cold
            System.getLogger(TwinWarmup.class.getName()).log(System.Logger.Level.DEBUG, "warm-up stopped", e);
        } finally {
            scratch = null;
        }
        return new Result(Duration.ofNanos(System.nanoTime() - t0), sweeps, up);
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
