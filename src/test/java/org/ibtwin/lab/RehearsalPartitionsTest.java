package org.ibtwin.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.format.TopologyReader;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.whatif.Change;
import org.ibtwin.whatif.Report;
import org.junit.jupiter.api.Test;

/**
 * A change of partitions alone is rehearsed on one twin (the after side from its learnt state and the P_Key
 * manager's rules): its report must be the one two twins brought up and learnt through MADs give, word for word and
 * field for field, for a tenant move, a lock-out, ports leaving Default, several files at once and a standby, and
 * on two-port CAs whose ports are in different partitions (each port's P_KeyTable read through that port).
 */
class RehearsalPartitionsTest {
    private static final long BASE = 0xec0d9a0300ec8400L;
    private static final Supplier<Fabric> TREE = () -> FatTree.build(FatTreeSpec.of(2, 4, 8).withGuidBase(BASE));

    private static String port(int k) {
        List<Node> cas = TREE.get().cas();
        return String.format(Locale.ROOT, "0x%016x", cas.get(k - 1).port(1).guid());
    }

    private static Change conf(String name, String text) {
        return new Change.Partitions(PartitionsConf.parse(text, name));
    }

    private static void same(PartitionsConf now, String standby, Change... changes) {
        Rehearsal.Settings s = new Rehearsal.Settings(SmConfig.defaults(), now, null, standby);
        Report fast = Rehearsal.run(TREE, "tree", s, List.of(changes));
        Report twins = Rehearsal.run(TREE, "tree", s, List.of(changes), true);
        assertThat(fast.text()).isEqualTo(twins.text());
        assertThat(fast.json()).isEqualTo(twins.json());
        assertThat(fast.exitCode()).isEqualTo(twins.exitCode());
    }

    private static String tenants(int... splitAt) {
        StringBuilder b = new StringBuilder("Default=0x7fff, ipoib : ALL=limited, SELF=full ;\n");
        List<String> a = new ArrayList<>();
        List<String> c = new ArrayList<>();
        for (int k = 2; k <= 8; k++) {
            (k <= splitAt[0] ? a : c).add(port(k) + "=full");
        }
        b.append("A=0x8001, ipoib : ").append(String.join(", ", a)).append(" ;\n");
        b.append("B=0x8002 : ").append(String.join(", ", c)).append(" ;\n");
        return b.toString();
    }

    @Test
    void aTenantMoveReadsAsOnTwoTwins() {
        PartitionsConf now = PartitionsConf.parse(tenants(4), "now.conf");
        Report r = Rehearsal.run(TREE, "tree", new Rehearsal.Settings(SmConfig.defaults(), now, null, null),
                List.of(conf("next.conf", tenants(3))));
        // host 4 leaves A (hosts 2, 3) and joins B (hosts 5..8)
        assertThat(r.lostPairs()).isEqualTo(2);
        assertThat(r.gainedPairs()).isEqualTo(4);
        same(now, null, conf("next.conf", tenants(3)));
    }

    @Test
    void aLockOutAndPortsLeavingDefaultReadAsOnTwoTwins() {
        same(null, null, conf("limited.conf", "Default=0x7fff : ALL=limited ;\n"));
        same(null, null, conf("few.conf", "Default=0x7fff : SELF=full, " + port(2) + "=full ;\n"));
    }

    @Test
    void severalFilesAndAStandbyReadAsOnTwoTwins() {
        same(PartitionsConf.parse(tenants(5), "now.conf"), "node008", conf("one.conf", tenants(3)),
                conf("two.conf", "Default=0x7fff, ipoib : ALL=full ;\nC=0x8003 : " + port(7) + "=limited, "
                        + port(8) + "=full ;\n"));
    }

    /** Two switches joined twice, each with one CA cabled to it by both its ports (four CA ports in all). */
    private static final String TWO_PORT_CAS = """
            Switch 8 "sw-a"
            [1] "ca-a"[1]
            [2] "ca-a"[2]
            [3] "sw-b"[3]
            [5] "sw-b"[5]

            Switch 8 "sw-b"
            [1] "ca-b"[1]
            [2] "ca-b"[2]
            [3] "sw-a"[3]
            [5] "sw-a"[5]

            Hca 2 "ca-a"
            [1] "sw-a"[1]
            [2] "sw-a"[2]

            Hca 2 "ca-b"
            [1] "sw-b"[1]
            [2] "sw-b"[2]
            """;

    @Test
    void twoPortCasWhosePortsDifferReadAsOnTwoTwins() {
        Supplier<Fabric> net = () -> TopologyReader.read(TWO_PORT_CAS, "two-port.net");
        Fabric f = net.get();
        Node a = f.cas().get(0);
        Node b = f.cas().get(1);
        String tenants = String.format(Locale.ROOT, "Default=0x7fff, ipoib : ALL=limited, SELF=full ;%n"
                + "A=0x8001 : 0x%016x=full, 0x%016x=full ;%nB=0x8002 : 0x%016x=full, 0x%016x=full ;%n",
                a.port(1).guid(), a.port(2).guid(), b.port(1).guid(), b.port(2).guid());
        Rehearsal.Settings s = new Rehearsal.Settings(SmConfig.defaults(), null, null, null);
        List<Change> change = List.of(conf("tenants.conf", tenants));
        Report fast = Rehearsal.run(net, "two-port", s, change);
        Report twins = Rehearsal.run(net, "two-port", s, change, true);
        // the SM's own port (ca-a/1) is Default's only full member: it reaches ca-b's two ports, ca-a/2 (limited)
        // does not; each CA's two ports share their tenant: 6 pairs before, 4 after, as real OpenSM leaves them
        assertThat(twins.lostPairs()).isEqualTo(2);
        assertThat(twins.gainedPairs()).isZero();
        assertThat(fast.text()).isEqualTo(twins.text());
        assertThat(fast.json()).isEqualTo(twins.json());
    }
}
