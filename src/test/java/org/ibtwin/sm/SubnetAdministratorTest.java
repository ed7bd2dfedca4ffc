package org.ibtwin.sm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.fixture.TwinFabric;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadStatus;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.PortId;
import org.ibtwin.mad.SaAttributes;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.transport.MadTransport;
import org.junit.jupiter.api.Test;

/**
 * The SM's SA and P_Key manager on the twin in process: queries from another port through {@link MadQuery} (RMPP
 * reassembled), answers checked against the twin; partitions checked in the twin's P_Key tables and in the paths.
 */
class SubnetAdministratorTest {
    private static final Layout NR = SaAttributes.NODE_RECORD;
    private static final Layout PR = SaAttributes.PATH_RECORD;

    /** A transport at {@code node}'s port 1 (not an SM). */
    private static MadTransport client(TwinFabric f, String node) {
        return f.tool(node, 1);
    }

    private static MadQuery.SaResult table(MadQuery q, int smLid, int attr, long mask, byte[] template) {
        return q.saQuery(smLid, Methods.GET_TABLE, attr, 0, mask, 0, template);
    }

    @Test
    void nodeLinkPortInfoAndSmInfoRecordsOfTheDefaultFabricComeWholeThroughRmpp() {
        Fabric fabric = FabricFiles.loadDefault();
        try (TwinFabric f = new TwinFabric(fabric)) {
            SubnetManager sm = f.sm(SmConfig.defaults());
            SweepReport r = sm.sweep();
            assertThat(r.subnetUp()).isTrue();
            try (MadTransport other = client(f, "node010")) {
                MadQuery q = new MadQuery(other);
                MadQuery.SaResult nr = table(q, r.smLid(), AttributeIds.NODE_RECORD, 0, new byte[0]);
                assertThat(nr.status()).isZero();
                List<byte[]> nodes = nr.records(NR.size());
                assertThat(nodes).hasSize(65);                   // 60 CAs + 5 switches, 112 bytes apart: 37 segments
                Set<String> seen = new HashSet<>();
                for (byte[] rec : nodes) {
                    int lid = (int) NR.get(rec, 0, "Lid");
                    Node n = fabric.byGuid(NR.get(rec, 0, "Guid"));
                    assertThat(n).isNotNull();
                    assertThat(NR.get(rec, 0, "PortGuid")).isEqualTo(n.port(n.isSwitch() ? 0 : 1).guid());
                    assertThat(f.twin.lid(n.name(), n.isSwitch() ? 0 : 1)).isEqualTo(lid);
                    seen.add(n.name());
                }
                assertThat(seen).hasSize(65);
                List<byte[]> links = table(q, r.smLid(), AttributeIds.LINK_RECORD, 0, new byte[0])
                        .records(SaAttributes.LINK_RECORD.size());
                assertThat(links).hasSize(2 * fabric.links().size());
                byte[] smir = table(q, r.smLid(), AttributeIds.SM_INFO_RECORD, 0, new byte[0]).records(
                        SaAttributes.SM_INFO_RECORD.size()).get(0);
                assertThat(SaAttributes.SM_INFO_RECORD.get(smir, 0, "Lid")).isEqualTo(r.smLid());
                assertThat(SaAttributes.SM_INFO_RECORD.get(smir, 0, "SmState")).isEqualTo(3);

                // one NodeRecord by LID with SubnAdmGet; a LID nobody has: ERR_NO_RECORDS
                byte[] t = new byte[NR.size()];
                NR.set(t, 0, "Lid", f.twin.lid("node017", 1));
                MadQuery.SaResult one = q.saQuery(r.smLid(), Methods.GET, AttributeIds.NODE_RECORD, 0, 1, 0, t);
                assertThat(one.status()).isZero();
                assertThat(NR.format(one.data(), 0, NR.field("NodeDesc"))).isEqualTo("'node017 mlx5_0'");
                NR.set(t, 0, "Lid", 999);
                assertThat(q.saQuery(r.smLid(), Methods.GET, AttributeIds.NODE_RECORD, 0, 1, 0, t).status())
                        .isEqualTo(MadStatus.SA_NO_RECORDS);
            }
        }
    }

    @Test
    void pathRecordsFollowTheLftsAndTakeTheSlowestLinkAndSmallestMtu() {
        Fabric fabric = FabricFiles.loadDefault();
        try (TwinFabric f = new TwinFabric(fabric)) {
            SweepReport r = f.sm(SmConfig.defaults()).sweep();
            try (MadTransport other = client(f, "node002")) {
                MadQuery q = new MadQuery(other);
                byte[] t = new byte[PR.size()];
                PR.set(t, 0, "PathRecSLid", f.twin.lid("node002", 1));
                PR.set(t, 0, "PathRecDLid", f.twin.lid("node003", 1));
                List<byte[]> p = table(q, r.smLid(), AttributeIds.PATH_RECORD, (1 << 4) | (1 << 5), t)
                        .records(PR.size());
                assertThat(p).hasSize(1);
                assertThat(PR.get(p.get(0), 0, "PathRecPKey")).isEqualTo(0xffff);
                assertThat(PR.get(p.get(0), 0, "PathRecRate")).isEqualTo(17);     // 4xHDR: 200 Gb/s
                // every path from node002 (all end ports): 65
                PR.set(t, 0, "PathRecDLid", 0);
                assertThat(table(q, r.smLid(), AttributeIds.PATH_RECORD, 1 << 5, t).records(PR.size())).hasSize(65);
                // MTU selector "greater than 4096" cannot be met
                PR.set(t, 0, "PathRecDLid", f.twin.lid("node003", 1));
                PR.set(t, 0, "PathRecMtuSelector", 0);
                PR.set(t, 0, "PathRecMtu", 5);
                assertThat(table(q, r.smLid(), AttributeIds.PATH_RECORD, (1 << 4) | (1 << 5) | (3 << 16), t)
                        .records(PR.size())).isEmpty();
            }
        }
    }

    @Test
    void partitionsGoIntoPkeyTablesWithEnforcementAndPathsNeedASharedPartition() {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 8, 16));
        Node a = fabric.cas().get(1);
        Node b = fabric.cas().get(2);
        Node c = fabric.cas().get(3);
        String conf = String.format("Default=0x7fff, ipoib : ALL=limited, SELF=full ;%n"
                + "blue=0x0010, ipoib : 0x%016x=full, 0x%016x ;%nred=0x0020 : 0x%016x=full ;%n",
                a.port(1).guid(), b.port(1).guid(), c.port(1).guid());
        try (TwinFabric f = new TwinFabric(fabric)) {
            SubnetManager sm = f.sm(SmConfig.defaults());
            sm.partitions(PartitionsConf.parse(conf, "partitions.conf"));
            SweepReport r = sm.sweep();
            assertThat(r.subnetUp()).isTrue();
            try (MadTransport other = client(f, a.name())) {
                MadQuery q = new MadQuery(other);
                byte[] pk = q.smpGet(PortId.lid(f.twin.lid(a.name(), 1)), AttributeIds.P_KEY_TABLE, 0);
                Layout l = SmpAttributes.P_KEY_TABLE;
                assertThat(l.get(pk, 0, "PKey0")).isEqualTo(0x7fff);
                assertThat(l.get(pk, 0, "PKey1")).isEqualTo(0x8010);
                assertThat(l.get(pk, 0, "PKey2")).isZero();
                byte[] pkb = q.smpGet(PortId.lid(f.twin.lid(b.name(), 1)), AttributeIds.P_KEY_TABLE, 0);
                assertThat(l.get(pkb, 0, "PKey1")).isEqualTo(0x0010);
                // the switch port facing a: same table, enforcement on
                var leaf = a.port(1).remote();
                int swLid = f.twin.lid(leaf.node().name(), 0);
                byte[] spk = q.smpGet(PortId.lid(swLid), AttributeIds.P_KEY_TABLE, (long) leaf.number() << 16);
                assertThat(l.get(spk, 0, "PKey1")).isEqualTo(0x8010);
                byte[] spi = q.smpGet(PortId.lid(swLid), AttributeIds.PORT_INFO, leaf.number());
                assertThat(SmpAttributes.PORT_INFO.get(spi, 0, "PartEnforceInb")).isEqualTo(1);
                assertThat(SmpAttributes.PORT_INFO.get(spi, 0, "PartEnforceOutb")).isEqualTo(1);

                byte[] t = new byte[PR.size()];
                PR.set(t, 0, "PathRecSLid", f.twin.lid(a.name(), 1));
                PR.set(t, 0, "PathRecDLid", f.twin.lid(b.name(), 1));
                List<byte[]> ab = table(q, r.smLid(), AttributeIds.PATH_RECORD, (1 << 4) | (1 << 5), t)
                        .records(PR.size());
                assertThat(ab).hasSize(1);
                assertThat(PR.get(ab.get(0), 0, "PathRecPKey")).isEqualTo(0x8010);
                PR.set(t, 0, "PathRecDLid", f.twin.lid(c.name(), 1));
                assertThat(table(q, r.smLid(), AttributeIds.PATH_RECORD, (1 << 4) | (1 << 5), t)
                        .records(PR.size())).as("a and c share only Default, both limited").isEmpty();

                // the IPoIB groups: Default and blue; a joins blue
                Layout mc = SaAttributes.MC_MEMBER_RECORD;
                List<byte[]> groups = table(q, r.smLid(), AttributeIds.MC_MEMBER_RECORD, 0, new byte[0])
                        .records(mc.size());
                assertThat(groups).hasSize(2);
                byte[] join = new byte[mc.size()];
                byte[] blue = groups.stream().filter(x -> mc.get(x, 0, "McastMemPkey") == 0x8010).findFirst()
                        .orElseThrow();
                byte[] mgid = mc.getBytes(blue, 0, "McastMemMGid");
                mc.setBytes(join, 0, "McastMemMGid", mgid);
                byte[] gid = new byte[16];
                gid[0] = (byte) 0xfe;
                gid[1] = (byte) 0x80;
                long g = a.port(1).guid();
                for (int i = 0; i < 8; i++) {
                    gid[8 + i] = (byte) (g >>> (56 - 8 * i));
                }
                mc.setBytes(join, 0, "McastMemPortGid", gid);
                mc.set(join, 0, "McastMemJoinState", 1);
                MadQuery.SaResult j = q.saQuery(r.smLid(), Methods.SET, AttributeIds.MC_MEMBER_RECORD, 0,
                        1 | 2 | (1 << 16), 0, join);
                assertThat(j.status()).isZero();
                // the member's own record (a PortGID asked for); untrusted and unnamed: the group's, zeroed
                List<byte[]> after = table(q, r.smLid(), AttributeIds.MC_MEMBER_RECORD, 1 | 2, join)
                        .records(mc.size());
                assertThat(after).hasSize(1);
                assertThat(mc.getBytes(after.get(0), 0, "McastMemPortGid")).isEqualTo(gid);
                List<byte[]> zeroed = table(q, r.smLid(), AttributeIds.MC_MEMBER_RECORD, 1, join).records(mc.size());
                assertThat(zeroed).hasSize(1);
                assertThat(mc.getBytes(zeroed.get(0), 0, "McastMemPortGid")).isEqualTo(new byte[16]);
                // c is not in blue: refused
                long gc = c.port(1).guid();
                for (int i = 0; i < 8; i++) {
                    gid[8 + i] = (byte) (gc >>> (56 - 8 * i));
                }
                mc.setBytes(join, 0, "McastMemPortGid", gid);
                assertThat(q.saQuery(r.smLid(), Methods.SET, AttributeIds.MC_MEMBER_RECORD, 0, 1 | 2 | (1 << 16), 0,
                        join).status()).isEqualTo(MadStatus.SA_REQ_INVALID);
            }
            // c is in Default alone: untrusted it sees Default's group only, as from OpenSM; trusted (the SA key)
            // every group's members, blue's (a) too
            try (MadTransport other = client(f, c.name())) {
                MadQuery q = new MadQuery(other);
                Layout mc = SaAttributes.MC_MEMBER_RECORD;
                List<byte[]> seen = table(q, r.smLid(), AttributeIds.MC_MEMBER_RECORD, 0, new byte[0])
                        .records(mc.size());
                assertThat(seen).extracting(x -> mc.get(x, 0, "McastMemPkey")).containsExactly(0xffffL);
                List<byte[]> all = q.saQuery(r.smLid(), Methods.GET_TABLE, AttributeIds.MC_MEMBER_RECORD, 0, 0, 1,
                        new byte[0]).records(mc.size());
                assertThat(all).extracting(x -> mc.get(x, 0, "McastMemPkey")).contains(0x8010L);
            }
            // a second sweep writes no P_Key block
            long sets = sm.setsSent(AttributeIds.P_KEY_TABLE);
            sm.sweep();
            assertThat(sm.setsSent(AttributeIds.P_KEY_TABLE)).isEqualTo(sets);
        }
    }

    @Test
    void aRequesterSeesNodeAndPathRecordsOnlyOfPortsItSharesAPartitionWith() {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 8, 16));
        Node a = fabric.cas().get(1);
        Node b = fabric.cas().get(2);
        Node c = fabric.cas().get(3);
        String conf = String.format("Default=0x7fff : ALL=limited, SELF=full ;%n"
                + "blue=0x0010 : 0x%016x=full, 0x%016x=full ;%nred=0x0020 : 0x%016x=full ;%n",
                a.port(1).guid(), b.port(1).guid(), c.port(1).guid());
        try (TwinFabric f = new TwinFabric(fabric)) {
            SubnetManager sm = f.sm(SmConfig.defaults());
            sm.partitions(PartitionsConf.parse(conf, "partitions.conf"));
            SweepReport r = sm.sweep();
            assertThat(r.subnetUp()).isTrue();
            try (MadTransport other = client(f, a.name())) {
                MadQuery q = new MadQuery(other);
                Set<Long> seen = new HashSet<>();
                for (byte[] rec : table(q, r.smLid(), AttributeIds.NODE_RECORD, 0, new byte[0]).records(NR.size())) {
                    seen.add(NR.get(rec, 0, "PortGuid"));
                }
                // a sees itself, b (blue), the SM's port and the switches (full Default members); not c, nor the
                // other hosts (limited Default members, as a is)
                assertThat(seen).contains(a.port(1).guid(), b.port(1).guid(), fabric.switches().get(0).guid())
                        .doesNotContain(c.port(1).guid(), fabric.cas().get(4).port(1).guid());
                // a PathRecord between b and c: both visible? c is not, so none, though b and c share Default
                byte[] t = new byte[PR.size()];
                PR.set(t, 0, "PathRecSLid", f.twin.lid(b.name(), 1));
                PR.set(t, 0, "PathRecDLid", f.twin.lid(c.name(), 1));
                assertThat(table(q, r.smLid(), AttributeIds.PATH_RECORD, (1 << 4) | (1 << 5), t).records(PR.size()))
                        .isEmpty();
                // every path from b that a may ask for: to a, b itself and the full Default members
                PR.set(t, 0, "PathRecDLid", 0);
                for (byte[] p : table(q, r.smLid(), AttributeIds.PATH_RECORD, 1 << 5, t).records(PR.size())) {
                    int dst = (int) PR.get(p, 0, "PathRecDLid");
                    assertThat(dst).isNotEqualTo(f.twin.lid(c.name(), 1));
                }
                PR.set(t, 0, "PathRecDLid", f.twin.lid(a.name(), 1));
                assertThat(table(q, r.smLid(), AttributeIds.PATH_RECORD, (1 << 4) | (1 << 5), t).records(PR.size()))
                        .hasSize(1);
            }
            try (MadTransport other = client(f, c.name())) {
                MadQuery q = new MadQuery(other);
                Set<Long> seen = new HashSet<>();
                for (byte[] rec : table(q, r.smLid(), AttributeIds.NODE_RECORD, 0, new byte[0]).records(NR.size())) {
                    seen.add(NR.get(rec, 0, "PortGuid"));
                }
                assertThat(seen).contains(c.port(1).guid()).doesNotContain(a.port(1).guid(), b.port(1).guid());
            }
        }
    }

    @Test
    void aNewMasterWithoutThePartitionsFileWarnsOnceThatItReplacesTheTenantsPkeys() {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 8, 16));
        Node a = fabric.cas().get(1);
        Node b = fabric.cas().get(2);
        String conf = String.format("Default=0x7fff : ALL=limited, SELF=full ;%nblue=0x0010 : 0x%016x=full, "
                + "0x%016x=full ;%n", a.port(1).guid(), b.port(1).guid());
        try (TwinFabric f = new TwinFabric(fabric)) {
            List<String> first = new java.util.ArrayList<>();
            SubnetManager master = new SubnetManager(f.transport, SmConfig.defaults(), log(first));
            master.partitions(PartitionsConf.parse(conf, "partitions.conf"));
            assertThat(master.sweep().subnetUp()).isTrue();
            assertThat(first).noneMatch(l -> l.startsWith("P_Keys:")).as("power-up tables: nothing to warn of");
            master.detach();
            // the standby takes over, started without -P
            List<String> warned = new java.util.ArrayList<>();
            try (MadTransport other = f.attach(fabric.cas().get(5).name())) {
                SubnetManager standby = new SubnetManager(other, SmConfig.defaults(), log(warned));
                assertThat(standby.sweep().subnetUp()).isTrue();
                // 15: every CA but the old master's port (0xffff, as this SM leaves it), one line for them all
                assertThat(warned).filteredOn(l -> l.startsWith("P_Keys:")).singleElement().asString().matches(
                        "P_Keys: 15 ports have P_Keys another SM programmed that this SM's partitions \\(none: no -P, "
                        + "every port a full Default member\\) change \\(node0\\d\\d/1 has 0x7fff( 0x8010)?, gets "
                        + "0xffff\\); replacing them \\(was this SM started without the master's partitions file, -P\\?\\)");
                // the next sweep says nothing more
                warned.clear();
                standby.sweep();
                assertThat(warned).noneMatch(l -> l.startsWith("P_Keys:"));
                standby.detach();
            }
        }
    }

    private static SmLog log(List<String> warnings) {
        return new SmLog() {
            @Override
            public void info(String line) {
            }

            @Override
            public void warn(String line) {
                warnings.add(line);
            }
        };
    }

    @Test
    void lostSegmentsAndAcksAreAskedForAgainAndTheTableStillComesWhole() {
        Fabric fabric = FabricFiles.loadDefault();
        try (TwinFabric f = new TwinFabric(fabric)) {
            SweepReport r = f.sm(SmConfig.defaults()).sweep();
            // a fifth of the NodeRecord MADs lost on the way to the client, and on the way to the SA
            f.twin.setDropRate("node010", 1, AttributeIds.NODE_RECORD, 0.2);
            f.twin.setDropRate("node001", 1, AttributeIds.NODE_RECORD, 0.2);
            try (MadTransport other = client(f, "node010")) {
                MadQuery q = new MadQuery(other).timeout(java.time.Duration.ofMillis(50)).attempts(8);
                for (int i = 0; i < 3; i++) {
                    MadQuery.SaResult nr = table(q, r.smLid(), AttributeIds.NODE_RECORD, 0, new byte[0]);
                    assertThat(nr.records(NR.size())).hasSize(65);
                    Set<Long> guids = new HashSet<>();
                    for (byte[] rec : nr.records(NR.size())) {
                        guids.add(NR.get(rec, 0, "PortGuid"));
                    }
                    assertThat(guids).hasSize(65);
                }
            }
        }
    }

    @Test
    void aSubscriberGetsTrap128AsAReportWithTheIssuerGid() throws Exception {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 8, 16));
        try (TwinFabric f = new TwinFabric(fabric)) {
            SubnetManager sm = f.sm(SmConfig.defaults());
            SweepReport r = sm.sweep();
            // through a simulator, GMP requests reach only a port registered as an SM (as in ibsim): the subscriber
            try (MadTransport sub = f.attach(fabric.cas().get(5).name())) {
                java.util.concurrent.BlockingQueue<byte[]> got = new java.util.concurrent.LinkedBlockingQueue<>();
                sub.onUnsolicited(m -> got.add(m.mad()));
                Layout ii = SaAttributes.INFORM_INFO;
                byte[] t = new byte[ii.size()];
                // every trap, of every type, from every producer and LID (IBA 13.4.8.3's wildcards)
                ii.set(t, 0, "InformLIDRangeBegin", 0xffff);
                ii.set(t, 0, "InformIsGeneric", 1);
                ii.set(t, 0, "InformSubscribe", 1);
                ii.set(t, 0, "InformType", 0xffff);
                ii.set(t, 0, "InformTrapNumber", 0xffff);
                ii.set(t, 0, "InformQPN", 1);
                ii.set(t, 0, "InformProducerType", 0xffffff);
                MadQuery q = new MadQuery(sub);
                assertThat(q.saQuery(r.smLid(), Methods.SET, AttributeIds.INFORM_INFO, 0, 0, 0, t).status()).isZero();
                assertThat(sm.sa().subscriptions()).hasSize(1);

                var facing = fabric.cas().get(3).port(1).remote();
                Node leaf = facing.node();
                f.twin.linkDown(leaf.name(), facing.number());     // a host port: trap 128 from its leaf
                byte[] report = got.poll(5, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(report).as("a Report").isNotNull();
                assertThat(report[1] & 0xff).isEqualTo(0x03);
                assertThat(report[3] & 0xff).isEqualTo(Methods.REPORT);
                Layout n = SaAttributes.NOTICE;
                assertThat(n.get(report, 56, "NoticeTrapNumber")).isEqualTo(128);
                int leafLid = f.twin.lid(leaf.name(), 0);
                assertThat(n.get(report, 56, "NoticeIssuerLID")).isEqualTo(leafLid);
                byte[] gid = n.getBytes(report, 56, "NoticeIssuerGID");
                long g = 0;
                for (int i = 8; i < 16; i++) {
                    g = (g << 8) | (gid[i] & 0xff);
                }
                assertThat(g).isEqualTo(leaf.port(0).guid());
            }
        }
    }

    @Test
    void aPartitionWithoutAPkeyGetsTheNextFreeOneAsOpensmGeneratesIt() {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 8, 16));
        Node a = fabric.cas().get(1);
        String conf = String.format("Default=0x7fff : ALL=full ;%nfirst=0x0001 : ALL=limited ;%n"
                + "auto, ipoib : 0x%016x=full ;%n", a.port(1).guid());
        try (TwinFabric f = new TwinFabric(fabric)) {
            SubnetManager sm = f.sm(SmConfig.defaults());
            sm.partitions(PartitionsConf.parse(conf, "partitions.conf"));
            assertThat(sm.sweep().subnetUp()).isTrue();
            try (MadTransport other = client(f, a.name())) {
                byte[] pk = new MadQuery(other).smpGet(PortId.lid(f.twin.lid(a.name(), 1)), AttributeIds.P_KEY_TABLE,
                        0);
                Layout l = SmpAttributes.P_KEY_TABLE;
                assertThat(new long[] {l.get(pk, 0, "PKey0"), l.get(pk, 0, "PKey1"), l.get(pk, 0, "PKey2")})
                        .containsExactly(0xffff, 0x0001, 0x8002);
            }
            assertThat(sm.sa().snapshot().groups()).hasSize(1);
            assertThat(sm.sa().snapshot().groups().get(0).pkey()).isEqualTo(0x8002);
        }
    }

    @Test
    void queriesDuringSweepsAlwaysSeeOneWholeSweep() throws Exception {
        Fabric fabric = FabricFiles.loadDefault();
        try (TwinFabric f = new TwinFabric(fabric)) {
            SubnetManager sm = f.sm(SmConfig.defaults());
            SweepReport r = sm.sweep();
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicInteger sweeps = new java.util.concurrent.atomic.AtomicInteger();
            Thread sweeper = new Thread(() -> {
                while (!stop.get()) {
                    sm.forgetLfts();            // every block written again: long sweeps, many snapshots
                    sm.sweep();
                    sweeps.incrementAndGet();
                }
            });
            sweeper.start();
            try (MadTransport other = client(f, "node030")) {
                MadQuery q = new MadQuery(other);
                for (int i = 0; i < 15; i++) {
                    assertThat(table(q, r.smLid(), AttributeIds.NODE_RECORD, 0, new byte[0]).records(NR.size()))
                            .hasSize(65);
                    assertThat(table(q, r.smLid(), AttributeIds.LINK_RECORD, 0, new byte[0])
                            .records(SaAttributes.LINK_RECORD.size())).hasSize(240);
                }
            } finally {
                stop.set(true);
                sweeper.join(10_000);
            }
            assertThat(sweeps.get()).isPositive();
        }
    }
}
