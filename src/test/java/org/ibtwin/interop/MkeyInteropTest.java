package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.PortId;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.sim.IbsimServer;
import org.ibtwin.sim.Twin;
import org.ibtwin.sim.TwinTransport;
import org.ibtwin.sm.MKeys;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SmLog;
import org.ibtwin.sm.SubnetManager;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Real OpenSM against a fabric ibtwin's SM protected with an M_Key (level 1: Gets answer, with the key hidden; Sets
 * without the key are dropped), the SM then gone: OpenSM's sweep cannot take the ports over, and they keep our SM's
 * LID as their SM LID. Without the key the same OpenSM takes the same fabric over (the control).
 */
@Tag("interop")
@Timeout(180)
class MkeyInteropTest extends InteropTest {
    static final int FIRST_PORT = 25200;
    static final int LAST_PORT = 25239;
    private static final long KEY = 0x98039b0300c0ffeeL;

    /** Every end port's SM LID, read with the key by DR from {@code at}. */
    private static Map<String, Long> smLids(Twin twin, Fabric f, String at) {
        Map<String, Long> out = new HashMap<>();
        var a = twin.attach(at, 0);
        try (TwinTransport t = new TwinTransport(a)) {
            MadQuery q = new MadQuery(t).mkey(KEY).timeout(Duration.ofMillis(200)).attempts(2);
            for (Node n : f.nodes()) {
                int port = n.isSwitch() ? 0 : 1;
                int lid = twin.lid(n.name(), port);
                byte[] pi = q.smpGet(PortId.lid(lid), AttributeIds.PORT_INFO, port);
                out.put(n.name(), SmpAttributes.PORT_INFO.get(pi, 0, "SMLid"));
            }
        }
        return out;
    }

    @Test
    void realOpensmWithoutTheKeyCannotTakeAProtectedFabricOver() throws Exception {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 4, 8));
        for (boolean protect : new boolean[] {true, false}) {
            Twin twin = Twin.of(fabric);
            String ours = fabric.cas().get(0).name();
            String theirs = fabric.cas().get(5).name();
            var a = twin.attach(ours, 0);
            a.setIsSm(true);
            int ourLid;
            try (TwinTransport t = new TwinTransport(a)) {
                SubnetManager sm = new SubnetManager(t, SmConfig.defaults(), SmLog.quiet());
                sm.mkeys(protect ? new MKeys(KEY, 1, 0) : MKeys.none());
                assertThat(sm.sweep().subnetUp()).isTrue();
                ourLid = twin.lid(ours, 1);
                sm.detach();
                a.setIsSm(false);
            }
            Path osmDir = java.nio.file.Files.createDirectories(dir.resolve(protect ? "protected" : "open"));
            try (IbsimServer server = RemoteIbsim.serveTwin(twin, FIRST_PORT, LAST_PORT)) {
                UmadClient c = new UmadClient(tools.umad2sim, server.port(), osmDir, theirs, Duration.ofSeconds(90));
                UmadClient.Result r = c.run(tools.opensm, "-o", "-e", "-f", osmDir.resolve("osm.log").toString(),
                        "-t", "50", "--retries", "1");
                assertThat(r.timedOut()).as(r.out() + r.err()).isFalse();
            }
            Map<String, Long> lids = smLids(twin, fabric, fabric.cas().get(2).name());
            int theirLid = twin.lid(theirs, 1);
            if (protect) {
                assertThat(lids.values()).as("protected: every port keeps our SM's LID").containsOnly((long) ourLid);
            } else {
                assertThat(theirLid).isNotZero();
                assertThat(lids.values()).as("open: OpenSM took over").containsOnly((long) theirLid);
            }
        }
    }
}
