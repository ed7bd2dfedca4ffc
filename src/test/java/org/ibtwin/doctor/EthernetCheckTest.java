package org.ibtwin.doctor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Cable;
import org.ibtwin.model.DeviceCatalog;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkLayer;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeType;
import org.junit.jupiter.api.Test;

/** T03: an Ethernet port is an error in the IB fabric, and INFO as a host's RoCE port beside its IB port. */
class EthernetCheckTest {
    /** 30 hosts on two leaves (the second has free ports), plus node031: a dual-port ConnectX-6, port 1 cabled. */
    private static Fabric withDualPortHost() {
        Fabric f = FatTree.build(FatTreeSpec.of(2, 40, 30));
        Node n = new Node(NodeType.CA, 0xec0d9a0300ec8480L, "H-ec0d9a0300ec8480", 2);
        n.setDescription("node031 mlx5_0");
        DeviceCatalog.apply(n, DeviceCatalog.CONNECTX6);
        n.setHostFacts(Lab.node(f, "node001").hostFacts());
        f.add(n);
        f.connect(n.port(1), Lab.node(f, "leaf02").port(11), Cable.UNRATED);
        Lab.assignLids(f);
        return f;
    }

    @Test
    void aRocePortBesideAnInfinibandPortIsInfo() {
        Fabric f = withDualPortHost();
        Lab.port(f, "node031/2").setLinkLayer(LinkLayer.ETHERNET);
        Report r = Lab.examine(f);
        assertThat(r.findings()).as(r.toText()).extracting(Finding::id, Finding::where, Finding::severity)
                .containsExactly(tuple("T03", "node031/2", Severity.INFO));
        assertThat(r.findings().get(0).title()).isEqualTo("RoCE port beside an InfiniBand port");
        assertThat(r.findings().get(0).evidence()).containsExactly("node031/2: link layer Ethernet",
                "node031/1 beside it runs InfiniBand; this port is cabled to nothing in the fabric");
        assertThat(r.exitCode(Severity.ERROR)).isZero();
    }

    @Test
    void anEthernetPortCabledIntoTheFabricStaysAnError() {
        Fabric f = withDualPortHost();
        Lab.port(f, "node031/1").setLinkLayer(LinkLayer.ETHERNET);   // cabled to leaf02/11, which stays down
        Lab.link(f, "node031/1").train();
        Report r = Lab.examine(f);
        assertThat(r.findings()).as(r.toText()).extracting(Finding::id, Finding::where, Finding::severity)
                .contains(tuple("T03", "node031/1", Severity.ERROR));
    }
}
