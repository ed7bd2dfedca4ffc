package org.ibtwin.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.format.TopologyWriter;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.sim.IbsimServer;
import org.ibtwin.sim.Twin;
import org.ibtwin.transport.IbsimClient;
import org.junit.jupiter.api.Test;

class TwinWarmupTest {

    @Test
    void warmsThroughTheServedEndpointAndLeavesTheServedTwinAlone() throws Exception {
        Fabric f = FabricFiles.loadDefault();
        Twin twin = Twin.of(f);
        java.util.Map<String, Integer> lids = new java.util.HashMap<>();
        for (Node n : f.cas()) {
            lids.put(n.name(), twin.lid(n.name(), 1));
        }
        long processed = twin.processed();
        TwinWarmup warm = TwinWarmup.around(name -> twin.attach(name, 0));
        try (IbsimServer server = new IbsimServer(warm.attachPoint())) {
            server.start(InetAddress.getLoopbackAddress(), 0);
            TwinWarmup.Result r = warm.run(server, Duration.ofMillis(300));
            assertThat(r.up()).as("the SM's sweep brings the scratch twin up").isTrue();
            assertThat(r.passes()).as("the SM's sweep and at least one replay of it").isGreaterThanOrEqualTo(2);
            assertThat(r.answered()).as("replayed SMPs answered").isGreaterThanOrEqualTo(1000L * (r.passes() - 1));
            assertThat(r.took()).isGreaterThanOrEqualTo(Duration.ofMillis(300));
            assertThat(server.clients()).as("the warm-up client has gone").isEmpty();
            assertThat(twin.processed()).as("MADs the served twin handled").isEqualTo(processed);
            for (Node n : f.cas()) {
                assertThat(twin.lid(n.name(), 1)).as(n.name() + " of the served twin").isEqualTo(lids.get(n.name()));
            }
            // the name means nothing once the warm-up is over: clients attach at the served twin only
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> warm.attachPoint().attach(TwinWarmup.NODE))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void anSmAttachingToTheServedTwinMeanwhileDisturbsNeither() throws Exception {
        // a generated tree has the GUIDs a scratch tree of the default base would have
        Fabric f = FatTree.build(FatTreeSpec.of(2, 8, 16));
        Twin twin = Twin.of(f);
        String first = TopologyWriter.id(f.cas().get(0));
        TwinWarmup warm = TwinWarmup.around(name -> twin.attach(name, 0));
        try (IbsimServer server = new IbsimServer(warm.attachPoint())) {
            server.start(InetAddress.getLoopbackAddress(), 0);
            CompletableFuture<TwinWarmup.Result> running = CompletableFuture.supplyAsync(
                    () -> warm.run(server, Duration.ofMillis(600)));
            Thread.sleep(200);
            try (IbsimClient sm = IbsimClient.connect("127.0.0.1", server.port(), first, true)) {
                assertThat(sm.attachedNode()).isEqualTo(first);
                TwinWarmup.Result r = running.get(30, TimeUnit.SECONDS);
                assertThat(r.passes()).as("passes while the SM sat on the served twin").isGreaterThanOrEqualTo(2);
            }
        }
    }
}
