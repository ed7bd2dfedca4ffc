package org.ibtwin.diag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.ibtwin.diag.SaQueries.Failure;
import org.ibtwin.diag.SaQueries.NodePrint;
import org.ibtwin.diag.SaQueries.Query;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.lab.LabTransport;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.PerfAttributes;
import org.ibtwin.mad.SaAttributes;
import org.ibtwin.sim.Twin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * saquery's query table, lookups and record printers against our SM's SA on the default fabric's twin (the
 * in-process tools' {@link LabTransport}, as {@code ibtwin saquery} attaches without --ibsim), and the printers on
 * records built by hand (real GUIDs with the top bit set).
 */
class SaQueriesTest {
    private static LabTransport port;
    private static Twin twin;
    private static MadQuery q;
    private static int smLid;

    @BeforeAll
    static void bringUp() {
        port = LabTransport.open(FabricFiles.loadDefault(), "the default fabric", "node002");
        twin = port.lab().twin();
        q = new MadQuery(port);
        q.timeout(Duration.ofMillis(1000));
        smLid = port.localPort().smLid();
    }

    @AfterAll
    static void down() {
        port.close();
    }

    private static SaQueries sa(StringBuilder out) {
        return new SaQueries(q, smLid, 0, false, false, out);
    }

    private static String run(Query query, String... args) {
        StringBuilder out = new StringBuilder();
        SaQueries s = sa(out);
        if (query.needsClassPortInfo()) {
            s.readClassPortInfo();
        }
        s.query(query, List.of(args), Map.of(), 0, 0, -1);
        return out.toString();
    }

    /** The number after the dots of the first "\t\tname....N" line. */
    private static int value(String text, String name) {
        String line = text.lines().filter(l -> l.startsWith("\t\t" + name + ".")).findFirst().orElseThrow();
        return Integer.parseInt(line.substring(line.lastIndexOf('.') + 1));
    }

    private static int count(String text, String heading) {
        return text.split(heading, -1).length - 1;
    }

    @Test
    void theTableMatchesSaquerysNamesAndAliasesInAnyCase() {
        assertThat(Query.match("pir")).contains(Query.PORT_INFO_RECORD);
        assertThat(Query.match("PortInfoRecord")).contains(Query.PORT_INFO_RECORD);
        assertThat(Query.match("sl2vl")).contains(Query.SL2VL_TABLE_RECORD);
        assertThat(Query.match("lftrecord")).contains(Query.LFT_RECORD);
        assertThat(Query.match("NodeRecords")).isEmpty();
        assertThat(Query.LINK_RECORD.usage()).isEqualTo("  LinkRecord (LR) [[from_lid]/[from_port]] "
                + "[[to_lid]/[to_port]]");
        assertThat(Query.CLASS_PORT_INFO.usage()).isEqualTo("  ClassPortInfo (CPI)");
        assertThat(Arrays.stream(Query.values()).filter(Query::supported).map(Query::alias))
                .containsExactly("CPI", "NR", "PIR", "PKTR", "IIR", "LR", "SR", "PR", "MCMR", "LFTR", "GIR", "SWIR",
                        "SMIR");
        assertThat(Query.SWITCH_INFO_RECORD.needsClassPortInfo()).isTrue();
        assertThat(Query.NODE_RECORD.needsClassPortInfo()).isFalse();
        assertThat(Query.PATH_RECORD.attribute()).isEqualTo(AttributeIds.PATH_RECORD);
    }

    @Test
    void argumentsFillTheTemplateAndTheSaFiltersByThem() {
        int lid = twin.lid("node017", 1);
        assertThat(count(run(Query.NODE_RECORD), "NodeRecord dump:")).isEqualTo(65);
        String one = run(Query.NODE_RECORD, String.valueOf(lid));
        assertThat(count(one, "NodeRecord dump:")).isEqualTo(1);
        assertThat(one).contains("\t\tlid....................." + lid + "\n")
                .contains("\t\tNodeDescription.........node017 mlx5_0\n");
        // a node description stands for its LID, as saquery's get_lid reads it
        assertThat(run(Query.NODE_RECORD, "node017 mlx5_0")).isEqualTo(one);
        String pir = run(Query.PORT_INFO_RECORD, lid + "/1");
        assertThat(count(pir, "PortInfoRecord dump:")).isEqualTo(1);
        assertThat(pir).startsWith("PortInfoRecord dump:\n\tRID\n\t\tEndPortLid.............." + lid
                + "\n\t\tPortNum.................1\n").contains("\t\tMkey:............................<not displayed>\n");
        String links = run(Query.LINK_RECORD, String.valueOf(lid));
        assertThat(count(links, "LinkRecord dump:")).isEqualTo(1);
        assertThat(links).contains("\t\tFromLID...................." + lid + "\n");
        // the second argument is the far end: the CA's switch port, then the link back from it to the CA
        int toLid = value(links, "ToLID");
        int toPort = value(links, "ToPort");
        String back = run(Query.LINK_RECORD, toLid + "/" + toPort, lid + "/1");
        assertThat(count(back, "LinkRecord dump:")).isEqualTo(1);
        assertThat(value(back, "ToLID")).isEqualTo(lid);
        assertThat(run(Query.LINK_RECORD, toLid + "/" + toPort, lid + "/2")).isEmpty();
        assertThat(run(Query.NODE_RECORD, "999")).isEmpty();
    }

    @Test
    void switchTablesAndTheSmsRecord() {
        int sw = switchLid();
        String lft = run(Query.LFT_RECORD, sw + "/0");
        assertThat(count(lft, "LFT Record dump:")).isEqualTo(1);
        assertThat(lft).contains("\t\tLID........................" + sw + "\n\t\tBlock......................0\n")
                .contains("\t\tLFT:\n\t\tLID\tPort Number\n\t\t0\t");
        String swir = run(Query.SWITCH_INFO_RECORD, String.valueOf(sw));
        assertThat(swir).startsWith("SwitchInfoRecord dump:\n\t\tRID\n\t\tLID....................................."
                + sw + "\n\t\tSwitchInfo dump:\n");
        String smir = run(Query.SM_INFO_RECORD);
        assertThat(smir).startsWith("SMInfoRecord dump:\n\t\tRID\n\t\tLID..................." + smLid + "\n")
                .contains("\t\tSMState...............3\n");
        // lid/port/block: a CA's table is its port 1's
        String pkeys = run(Query.PKEY_TABLE_RECORD, twin.lid("node017", 1) + "/1/0");
        assertThat(count(pkeys, "PKeyTableRecord dump:")).isEqualTo(1);
        assertThat(pkeys).contains("\t\tPort.......................1\n\t\tBlock......................0\n"
                + "\t\tPKey Table:\n\t\t0xffff 0x0000");
        assertThat(run(Query.PKEY_TABLE_RECORD, twin.lid("node017", 1) + "/2")).isEmpty();
    }

    private static int switchLid() {
        StringBuilder out = new StringBuilder();
        sa(out).query(Query.SWITCH_INFO_RECORD, List.of(), Map.of(), 0, 0, -1);
        String first = out.toString().split("\n")[2];
        return Integer.parseInt(first.substring(first.lastIndexOf('.') + 1));
    }

    @Test
    void pathRecordsFromSaquerysOptions() {
        int src = twin.lid("node002", 1);
        int dst = twin.lid("node017", 1);
        StringBuilder out = new StringBuilder();
        sa(out).query(Query.PATH_RECORD, List.of(), Map.of("slid", String.valueOf(src), "dlid",
                String.valueOf(dst)), 0, 0, -1);
        assertThat(count(out.toString(), "PathRecord dump:")).isEqualTo(1);
        assertThat(out).contains("\t\tdlid...................." + dst + "\n\t\tslid...................." + src + "\n")
                .contains("pkey....................0xFFFF");
        // --src-to-dst's LIDs win over --slid/--dlid; an MTU it cannot have ("greater than 4096") finds none
        out.setLength(0);
        sa(out).query(Query.PATH_RECORD, List.of(), Map.of("slid", "1", "dlid", "1"), src, dst, 0x7f);
        assertThat(count(out.toString(), "PathRecord dump:")).isEqualTo(1);
        out.setLength(0);
        sa(out).query(Query.PATH_RECORD, List.of(), Map.of("mtu", "5"), src, dst, -1);
        assertThat(out).isEmpty();
        // "exactly 4096" (selector 2 in the top bits)
        sa(out).query(Query.PATH_RECORD, List.of(), Map.of("mtu", "0x85"), src, dst, -1);
        assertThat(out).contains("\t\tmtu.....................0x85\n").contains("sgid....................fe80::");
        assertThatThrownBy(() -> sa(new StringBuilder()).query(Query.PATH_RECORD, List.of(), Map.of("dgid", "zz"),
                0, 0, -1)).isInstanceOf(Failure.class).hasMessage("saquery: bad GID \"zz\" (IPv6 format expected)")
                .extracting(e -> ((Failure) e).exitCode()).isEqualTo(SaQueries.USAGE);
    }

    @Test
    void lookupsAndFailuresInSaquerysWords() {
        SaQueries s = sa(new StringBuilder());
        assertThat(s.lid("node017 mlx5_0")).isEqualTo(twin.lid("node017", 1));
        assertThat(s.lid("0x10")).isEqualTo(16);
        assertThatThrownBy(() -> s.lid("nosuchnode")).isInstanceOf(Failure.class)
                .hasMessage("Failed to find lid for \"nosuchnode\": Machine is not on the network")
                .extracting(e -> ((Failure) e).exitCode()).isEqualTo(SaQueries.ENONET);
        assertThatThrownBy(() -> run(Query.PORT_INFO_RECORD, "/1")).isInstanceOf(Failure.class)
                .hasMessage("Invalid lid specified: \"\"")
                .extracting(e -> ((Failure) e).exitCode()).isEqualTo(SaQueries.EINVAL);
        assertThatThrownBy(() -> s.lid("70000")).isInstanceOf(Failure.class)
                .hasMessage("Invalid lid specified: \"70000\"")
                .extracting(e -> ((Failure) e).exitCode()).isEqualTo(SaQueries.EINVAL);
        // a record the SA does not serve: its status, as saquery words it (exit 5)
        assertThatThrownBy(() -> run(Query.SL2VL_TABLE_RECORD)).isInstanceOf(Failure.class)
                .hasMessage("ERROR: Query result returned 0x000c,  (; ; MAD Method/Attribute combination is not "
                        + "supported)")
                .extracting(e -> ((Failure) e).exitCode()).isEqualTo(SaQueries.EIO);
        assertThat(SaQueries.status(0x0300)).isEqualTo("ERROR: Query result returned 0x0300,  SA(SA_ERR_NO_RECORDS)");
        assertThat(SaQueries.status(0x0101)).isEqualTo("ERROR: Query result returned 0x0101,  (BUSY; ; MAD No "
                + "invalid fields) SA(SA_ERR_NO_RESOURCES)");
        assertThat(SaQueries.status(0x7f1c)).endsWith("MAD Invalid value in Attribute field(s) or Attribute "
                + "Modifier) SA(SA_ERR_UNKNOWN)");
    }

    @Test
    void nodeRecordCommandsAndIssm() {
        int lid = twin.lid("node017", 1);
        StringBuilder out = new StringBuilder();
        sa(out).nodeRecords(NodePrint.CA_LIST, null, 0);
        assertThat(out).startsWith("   LID \"name\"\n================\n");
        assertThat(out.toString().lines().filter(l -> l.endsWith("mlx5_0\""))).hasSize(60)
                .contains(String.format("%6d  \"node017 mlx5_0\"", lid));
        out.setLength(0);
        sa(out).nodeRecords(NodePrint.UNIQUE_LID_ONLY, "node017 mlx5_0", 0);
        assertThat(out).hasToString(lid + "\n");
        out.setLength(0);
        sa(out).nodeRecords(NodePrint.NAME_OF_LID, null, lid);
        assertThat(out).hasToString("node017 mlx5_0\n");
        out.setLength(0);
        sa(out).nodeRecords(NodePrint.GUID_ONLY, "node017 mlx5_0", 0);
        long guid = Long.parseUnsignedLong(out.toString().trim().substring(2), 16);
        out.setLength(0);
        sa(out).nodeRecords(NodePrint.NAME_OF_GUID, null, guid);
        assertThat(out).hasToString("node017 mlx5_0\n");
        out.setLength(0);
        sa(out).issm();
        assertThat(out.toString()).startsWith("IsSM ports\nPortInfoRecord dump:\n\t\tEndPortLid.............."
                + smLid + "\n").endsWith("\nIsSMdisabled ports\n");
        assertThat(count(out.toString(), "PortInfoRecord dump:")).isEqualTo(1);
    }

    @Test
    void jsonCollectsTheRecordsInsteadOfPrinting() {
        StringBuilder out = new StringBuilder();
        SaQueries s = new SaQueries(q, smLid, 0, false, true, out);
        s.readClassPortInfo();
        s.classPortInfo();
        s.query(Query.SM_INFO_RECORD, List.of(), Map.of(), 0, 0, -1);
        s.issm();
        assertThat(out).isEmpty();
        assertThat(s.jsonRecords()).extracting(m -> m.get("record"))
                .containsExactly("ClassPortInfo", "SMInfoRecord", "PortInfoRecord");
        assertThat(s.jsonRecords().get(1)).containsEntry("Lid", (long) smLid);
    }

    @Test
    void printersAsSaqueryPrintsThemWithTopBitGuids() {
        Layout nr = SaAttributes.NODE_RECORD;
        byte[] r = nr.encode(Map.of("Lid", 0x1a, "NodeType", 2, "NumPorts", 41, "SystemGuid", 0xb8599f0300fc5d20L,
                "Guid", 0xec0d9a0300ec8480L, "PortGuid", 0x98039b0300a1b2c3L, "LocalPort", 7));
        byte[] desc = "MF0;sw01:MQM8700/U1".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        System.arraycopy(desc, 0, r, 44, desc.length);
        StringBuilder out = new StringBuilder();
        SaRecords.nodeRecord(r, out);
        assertThat(out.toString()).contains("\t\tlid.....................26\n", "\t\tnode_type...............Switch\n",
                "\t\tsys_guid................0xb8599f0300fc5d20\n", "\t\tnode_guid...............0xec0d9a0300ec8480\n",
                "\t\tport_guid...............0x98039b0300a1b2c3\n", "\t\tport_num................7\n")
                .endsWith("\t\tNodeDescription.........MF0;sw01:MQM8700/U1\n");
        assertThat(SaRecords.json(nr, r)).containsEntry("record", "NodeRecord")
                .containsEntry("Guid", "0xec0d9a0300ec8480").containsEntry("Lid", 26L);

        Layout mc = SaAttributes.MC_MEMBER_RECORD;
        byte[] m = mc.encode(Map.of("McastMemMLid", 0xc000, "McastMemScope", 2, "McastMemJoinState", 1));
        mc.setBytes(m, 0, "McastMemMGid", Gids.parse("ff12:401b:ffff::ffff:ffff"));
        mc.setBytes(m, 0, "McastMemPortGid", Gids.parse("fe80::ec0d:9a03:ec:8480"));
        out.setLength(0);
        SaRecords.member(m, "sw01", out);
        assertThat(out).hasToString("MCMemberRecord member dump:\n\t\tMGID....................ff12:401b:ffff::ffff:ffff"
                + "\n\t\tMlid....................0xC000\n\t\tPortGid.................fe80::ec0d:9a03:ec:8480\n"
                + "\t\tScopeState..............0x21\n\t\tProxyJoin...............0x0\n"
                + "\t\tNodeDescription.........sw01\n");
        assertThat(SaRecords.json(mc, m)).containsEntry("McastMemPortGid", "fe80::ec0d:9a03:ec:8480");
        assertThat(Gids.parse("fe80::1-")).isNull();
        assertThat(Gids.parse("node001")).isNull();
    }

    @Test
    void switchInfoShowsMulticastFdbTopOnlyWhenTheSaSaysItHasIt() {
        Layout si = SaAttributes.SWITCH_INFO_RECORD;
        byte[] r = si.encode(Map.of("Lid", 3, "LinearFdbCap", 0xc000, "MulticastFDBTop", 0xc001));
        byte[] cpi = new byte[PerfAttributes.CLASS_PORT_INFO.size()];
        StringBuilder out = new StringBuilder();
        SaRecords.switchInfoRecord(r, null, out);
        assertThat(out).contains("\t\tLinearFDBCap............................0xC000\n")
                .doesNotContain("MulticastFDBTop");
        out.setLength(0);
        PerfAttributes.CLASS_PORT_INFO.set(cpi, 0, "CapabilityMask2", 1 << 3);
        SaRecords.switchInfoRecord(r, cpi, out);
        assertThat(out).endsWith("\t\tMulticastFDBTop.........................0xC001\n");
    }
}
