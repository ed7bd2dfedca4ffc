package org.ibtwin.sm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.fixture.GidBytes;
import org.ibtwin.fixture.TestResources;
import org.ibtwin.fixture.TwinFabric;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.format.TopologyReader;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadStatus;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.SaAttributes;
import org.ibtwin.model.Fabric;
import org.ibtwin.transport.MadTransport;
import org.junit.jupiter.api.Test;

/**
 * Multicast end to end in the twin: our SM creates the IPoIB broadcast groups, ports join and leave through the SA
 * (MCMemberRecord Set/Delete), the multicast manager programs MFTs, and a broadcast from one member, forwarded by the
 * twin through those MFTs, reaches every member and no one else.
 */
class MulticastTest {
    /** A core switch over three leaves of two CAs each; real-looking GUIDs with the top bit set (an ibsim net file). */
    static final String NET = TestResources.text("/topo/mcast-guids.net");
    static final Layout MC = SaAttributes.MC_MEMBER_RECORD;
    static final byte[] BROADCAST = GidBytes.parse("ff12401bffff000000000000ffffffff");

    /** A join (Set) or leave (Delete) from {@code node}'s port 1; the SA's status. */
    static int member(TwinFabric f, String node, int smLid, int method, byte[] mgid, int state, boolean create) {
        try (MadTransport c = f.tool(node, 1)) {
            byte[] r = new byte[MC.size()];
            MC.setBytes(r, 0, "McastMemMGid", mgid);
            MC.setBytes(r, 0, "McastMemPortGid", GidBytes.linkLocal(c.localPort().portGuid()));
            MC.set(r, 0, "McastMemJoinState", state);
            long mask = 1 | 2 | (1L << 16);
            if (create) {
                MC.set(r, 0, "McastMemQkey", 0x0b1b);
                MC.set(r, 0, "McastMemPkey", 0xffff);
                mask |= (1 << 2) | (1 << 6) | (1 << 7) | (1 << 12) | (1 << 13);
            }
            return new MadQuery(c).saQuery(smLid, method, AttributeIds.MC_MEMBER_RECORD, 0, mask, 0, r).status();
        }
    }

    @Test
    void anIpoibBroadcastReachesEveryMemberThroughTheProgrammedMftsAndNoOneElse() {
        Fabric fabric = TopologyReader.read(NET, "mcast.net");
        try (TwinFabric f = new TwinFabric(fabric, "h1")) {
            SubnetManager sm = f.sm(SmConfig.defaults());
            sm.partitions(PartitionsConf.parse("Default=0x7fff, ipoib : ALL=full ;\n", "partitions.conf"));
            SweepReport r = sm.sweep();
            assertThat(r.subnetUp()).as(String.join("\n", r.problems())).isTrue();
            int smLid = r.smLid();
            // no members yet: no switch forwards the broadcast group's MLID
            assertThat(f.twin.multicast("h2", 1, 0xc000)).isEmpty();

            assertThat(member(f, "h2", smLid, Methods.SET, BROADCAST, 1, false)).isZero();
            assertThat(member(f, "h3", smLid, Methods.SET, BROADCAST, 1, false)).isZero();
            assertThat(member(f, "h4", smLid, Methods.SET, BROADCAST, 4, false)).isZero();    // send-only
            assertThat(sm.multicastRequested()).isTrue();
            MulticastManager.Result m = sm.programMulticast();
            assertThat(m.failures()).isEmpty();
            assertThat(m.blocksWritten()).as("leaf1, leaf2 and core: one block each").isEqualTo(3);

            assertThat(f.twin.multicast("h2", 1, 0xc000)).containsExactlyInAnyOrder("h3/1", "h4/1");
            assertThat(f.twin.multicast("h3", 1, 0xc000)).containsExactlyInAnyOrder("h2/1", "h4/1");
            assertThat(f.twin.multicast("h4", 1, 0xc000)).containsExactlyInAnyOrder("h2/1", "h3/1");
            // leaf3 has no member below it: the MLID does not leak onto it
            for (int p = 0; p <= 8; p++) {
                assertThat(f.twin.mftEntry("leaf3", 0xc000, p)).as("leaf3 port " + p).isFalse();
            }
            assertThat(f.twin.mftEntry("core", 0xc000, 3)).isFalse();
            assertThat(f.twin.mftEntry("leaf1", 0xc000, 1)).as("h1 is no member").isFalse();

            // a group created by a join (IPv6 all-nodes), with its own MLID; a join without the components to
            // create one is refused as OpenSM refuses it
            byte[] v6 = GidBytes.parse("ff12601bffff00000000000000000001");
            assertThat(member(f, "h2", smLid, Methods.SET, v6, 1, true)).isZero();
            assertThat(member(f, "h6", smLid, Methods.SET, v6, 1, false)).isZero();
            assertThat(member(f, "h5", smLid, Methods.SET, GidBytes.parse("ff12601bffff00000000000000000002"), 1, false))
                    .isEqualTo(MadStatus.SA_INSUFFICIENT_COMPONENTS);
            sm.programMulticast();
            assertThat(f.twin.multicast("h6", 1, 0xc001)).containsExactly("h2/1");
            assertThat(f.twin.multicast("h2", 1, 0xc000)).containsExactlyInAnyOrder("h3/1", "h4/1");

            // h3 leaves: only leaf2's h4 port stays (send-only members stay in the tree); h4 leaves: leaf2 is out
            assertThat(member(f, "h3", smLid, Methods.DELETE, BROADCAST, 1, false)).isZero();
            assertThat(member(f, "h4", smLid, Methods.DELETE, BROADCAST, 4, false)).isZero();
            m = sm.programMulticast();
            assertThat(m.blocksWritten()).as("leaf1, leaf2 and core").isEqualTo(3);
            assertThat(f.twin.multicast("h2", 1, 0xc000)).isEmpty();
            assertThat(f.twin.mftEntry("leaf2", 0xc000, 8)).isFalse();
            // one member left: no tree; the last member leaves: the group goes
            assertThat(member(f, "h2", smLid, Methods.DELETE, v6, 1, false)).isZero();
            sm.programMulticast();
            assertThat(f.twin.mftEntry("leaf3", 0xc001, 2)).isFalse();
            assertThat(member(f, "h6", smLid, Methods.DELETE, v6, 1, false)).isZero();
            sm.programMulticast();
            assertThat(f.twin.multicast("h6", 1, 0xc001)).isEmpty();
            assertThat(sm.sa().multicast().views()).hasSize(1);

            // a heavy sweep with nothing changed writes no MFT block
            member(f, "h5", smLid, Methods.SET, BROADCAST, 1, false);
            member(f, "h1", smLid, Methods.SET, BROADCAST, 1, false);
            sm.programMulticast();
            long sets = sm.setsSent(AttributeIds.MCAST_FWD_TABLE);
            assertThat(sm.sweep().subnetUp()).isTrue();
            assertThat(sm.setsSent(AttributeIds.MCAST_FWD_TABLE)).isEqualTo(sets);
            assertThat(f.twin.multicast("h5", 1, 0xc000)).containsExactly("h1/1", "h2/1");

            // topology change: leaf3's uplink goes; h5 is gone from the subnet and from the group, leaf3 keeps
            // no entry the SM can reach, the others' trees are re-computed
            f.twin.linkDown("leaf3", 8);
            assertThat(sm.sweep().subnetUp()).isTrue();
            assertThat(f.twin.mftEntry("core", 0xc000, 3)).isFalse();
            assertThat(f.twin.multicast("h1", 1, 0xc000)).containsExactly("h2/1");
            f.twin.linkUp("leaf3", 8);
            assertThat(sm.sweep().subnetUp()).isTrue();
            List<String> all = f.twin.multicast("h1", 1, 0xc000);
            assertThat(all).containsExactly("h2/1");
        }
    }
}
