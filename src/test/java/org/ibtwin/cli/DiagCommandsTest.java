package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.ibtwin.diag.FakeFabric;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.Methods;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * smpquery and perfquery against an in-memory fabric ({@link FakeFabric}): what they print, how they fail (the real
 * tools' words and exit codes) and what they send. The byte-for-byte comparison with the real tools is
 * SmpPerfqueryInteropTest's.
 */
class DiagCommandsTest extends CliTest {
    private FakeFabric fabric;

    @BeforeEach
    void fake() {
        fabric = new FakeFabric();
        DiagCommand.opener = t -> fabric;
    }

    @Override
    protected int run(String... args) {
        if (fabric != null) {
            fabric.sent.clear();
            fabric.sentTo.clear();
        }
        return super.run(args);
    }

    @Test
    void nodeInfoByLidAndByDirectedRoute() {
        assertThat(run("smpquery", "nodeinfo", "2")).isZero();
        assertThat(out.toString()).startsWith("# Node info: Lid 2\nBaseVers:........................1\n")
                .contains("NodeType:........................Channel Adapter\n")
                .contains("PortGuid:........................0x0000000000000021\n");
        assertThat(fabric.closed()).isTrue();
        assertThat(run("smpquery", "-D", "NI", "0,1")).isZero();
        assertThat(out.toString()).startsWith("# Node info: DR path slid 65535; dlid 65535; 0,1\n");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void nodeDescriptionIsCleanedAsTheToolsDo() {
        assertThat(run("smpquery", "nodedesc", "2")).isZero();
        assertThat(out.toString()).isEqualTo("Node Description:............................ca x\n");
    }

    @Test
    void portInfoOfEachPortAndPKeys() {
        assertThat(run("smpquery", "portinfo", "1", "3")).isZero();
        assertThat(out.toString()).startsWith("# Port info: Lid 1 port 3\nMkey:............................"
                + "<not displayed>\n");
        assertThat(run("smpquery", "-K", "pi", "1", "3")).isZero();
        assertThat(out.toString()).contains("Mkey:............................0x0000000000000000\n");
        assertThat(run("smpquery", "-x", "pi", "1", "3")).isZero();
        assertThat(MadHeaders.attributeModifier(fabric.sent.get(0))).isEqualTo(0x8000_0003L);
        assertThat(run("smpquery", "pkeys", "1", "2")).isZero();
        assertThat(out.toString()).isEqualTo("   0: 0x00ff 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000\n"
                + "   8: 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000\n"
                + "  16: 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000\n"
                + "  24: 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000\n"
                + "32 pkeys capacity for this port\n");
        // a switch's external port: NodeInfo, then SwitchInfo for PartEnforceCap, then the block of port 2
        assertThat(fabric.sent.stream().map(MadHeaders::attributeId)).containsExactly(AttributeIds.NODE_INFO,
                AttributeIds.SWITCH_INFO, AttributeIds.P_KEY_TABLE);
        assertThat(MadHeaders.attributeModifier(fabric.sent.get(2))).isEqualTo(2L << 16);
    }

    @Test
    void forwardingTables() {
        assertThat(run("smpquery", "LFT", "1")).isZero();
        assertThat(out.toString()).isEqualTo("# Linear forwarding table: Lid 1 blocks 0-0 (LIDs 0x0000-0x003f, "
                + "LinearFdbCap 128, LinearFdbTop 2)\n  Lid  Out\n       Port\n0x0001 000\n0x0002 001\n"
                + "2 valid lids dumped\n");
        assertThat(run("smpquery", "lft", "1", "1")).isZero();
        assertThat(out.toString()).endsWith("       Port\n0 valid lids dumped\n");
        assertThat(run("smpquery", "lft", "1", "2")).isEqualTo(255);
        assertThat(out.toString()).isEqualTo("smpquery: iberror: failed: operation lft: invalid block number 2 "
                + "(LinearFdbCap 128: blocks 0-1)\n");
        assertThat(run("smpquery", "MFT", "1")).isZero();
        assertThat(out.toString()).isEqualTo("# Multicast forwarding table: Lid 1 blocks 0-0 (MLIDs 0xc000-0xc01f, "
                + "McastFdbCap 32, MulticastFDBTop 0x0000)\n MLid  Ports\n0xc000 1,2\n1 valid mlids dumped\n");
        assertThat(run("smpquery", "LFT", "2")).isEqualTo(255);
        assertThat(out.toString()).isEqualTo("smpquery: iberror: failed: operation LFT: not a switch "
                + "(forwarding tables are switches' only)\n");
    }

    // ---- the error paths, in the real tools' words (see SmpPerfqueryInteropTest for the comparison)

    @Test
    void unknownOperationFailsBeforeAttaching() {
        fabric = null;
        assertThat(run("smpquery", "foo", "3")).isEqualTo(255);
        assertThat(out.toString()).isEqualTo("smpquery: iberror: failed: operation 'foo' not supported\n");
        assertThat(run("smpquery", "guids", "3")).isEqualTo(255);   // GUIDInfo's alias is GI
    }

    @Test
    void badLidsCannotBeResolved() {
        for (String lid : new String[] {"abc", "0", "0xc000", "-1"}) {
            assertThat(run("smpquery", "nodeinfo", lid)).as(lid).isEqualTo(255);
            assertThat(out.toString()).isEqualTo("smpquery: iberror: failed: can't resolve destination port "
                    + lid + "\n");
        }
        assertThat(run("perfquery", "abc")).isEqualTo(255);
        assertThat(out.toString()).isEqualTo("perfquery: iberror: failed: can't resolve destination port abc\n");
    }

    @Test
    void anUnreachableLidTimesOut() {
        assertThat(run("smpquery", "-t", "10", "nodeinfo", "99")).isEqualTo(255);
        assertThat(out.toString()).isEqualTo("smpquery: iberror: failed: operation nodeinfo: node info query "
                + "failed\n");
        assertThat(err.toString()).matches("ibwarn: \\[\\d+\\] mad_rpc: _do_madrpc failed; dport \\(Lid 99\\)\n");
        assertThat(run("perfquery", "-t", "10", "99", "1")).isEqualTo(255);
        assertThat(out.toString()).isEqualTo("perfquery: iberror: failed: classportinfo query\n");
    }

    @Test
    void badDirectedPaths() {
        assertThat(run("smpquery", "-D", "nodeinfo", "")).isEqualTo(255);
        assertThat(out.toString()).isEqualTo("smpquery: iberror: failed: can't resolve destination port \n");
        assertThat(run("smpquery", "-t", "10", "-D", "nodeinfo", "0,3")).isEqualTo(255);
        assertThat(out.toString()).isEqualTo("smpquery: iberror: failed: operation nodeinfo: node info query "
                + "failed\n");
        assertThat(err.toString()).contains("dport (DR path slid 65535; dlid 65535; 0,3)");
        String tooLong = "0" + ",1".repeat(70);
        assertThat(run("smpquery", "-D", "nodeinfo", tooLong)).isEqualTo(255);
        assertThat(err.toString()).contains("mad_encode: dr path with hop count 70");
    }

    @Test
    void portsOutOfRange() {
        assertThat(run("smpquery", "portinfo", "2", "5")).isEqualTo(255);
        assertThat(out.toString()).isEqualTo("smpquery: iberror: failed: operation portinfo: port info query "
                + "failed\n");
        assertThat(err.toString()).isEmpty();                      // a status is shown only with -e
        assertThat(run("smpquery", "-e", "portinfo", "2", "5")).isEqualTo(255);
        assertThat(err.toString()).contains("mad_rpc: MAD completed with error status 0x1c; dport (Lid 2)");
        for (String op : new String[] {"pkeys", "sl2vl"}) {
            assertThat(run("smpquery", op, "2", "5")).isEqualTo(255);
            assertThat(out.toString()).isEqualTo("smpquery: iberror: failed: operation " + op + ": invalid port "
                    + "number\n");
        }
        assertThat(run("perfquery", "2", "5")).isEqualTo(255);
        assertThat(out.toString()).isEqualTo("perfquery: iberror: failed: perfquery\n");
        assertThat(run("perfquery", "1", "3-3")).isEqualTo(255);
        assertThat(out.toString()).isEqualTo("perfquery: iberror: failed: max port must be greater than min port "
                + "in range\n");
    }

    @Test
    void optionsCheckedAsTheToolsCheckThem() {
        assertThat(run("smpquery", "-t", "0", "nodeinfo", "1")).isEqualTo(255);
        assertThat(out.toString()).isEqualTo("smpquery: iberror: failed: Invalid timeout \"0\".  Timeout requires "
                + "a positive integer value < 2147483647.\n");
        assertThat(run("smpquery", "nodeinfo")).isEqualTo(2);
        assertThat(err.toString()).contains("Usage: ibtwin smpquery");
        assertThat(run("smpquery", "-s", "0", "nodeinfo", "1")).isEqualTo(255);
        assertThat(out.toString()).isEqualTo("smpquery: iberror: failed: cannot resolve SM destination port 0\n");
        assertThat(run("smpquery", "--bogus", "nodeinfo", "1")).isEqualTo(2);
    }

    @Test
    void guidsAreAskedOfTheSa() {
        assertThat(run("smpquery", "-G", "nodeinfo", "0x21")).isZero();
        assertThat(out.toString()).startsWith("# Node info: Lid 2\n");
        assertThat(run("smpquery", "-G", "nodeinfo", "0x99")).isEqualTo(255);
        assertThat(out.toString()).isEqualTo("smpquery: iberror: failed: can't resolve destination port 0x99\n");
        assertThat(err.toString()).contains("ib_path_query_via: sa call path_query failed");
        assertThat(run("smpquery", "-G", "-L", "nodeinfo", "2")).isZero();     // the last address type wins
    }

    @Test
    void perfqueryReadsClassPortInfoFirst() {
        assertThat(run("perfquery", "2", "1")).isZero();
        assertThat(out.toString()).startsWith("# Port counters: Lid 2 port 1 (CapMask: 0x1200)\n"
                + "PortSelect:......................1\n").contains("SymbolErrorCounter:..............9\n")
                .contains("PortXmitWait:....................5\n");
        assertThat(fabric.sent.stream().map(MadHeaders::attributeId))
                .containsExactly(AttributeIds.CLASS_PORT_INFO, AttributeIds.PORT_COUNTERS);
        assertThat(run("perfquery", "-x", "2", "1")).isZero();
        assertThat(out.toString()).startsWith("# Port extended counters: Lid 2 port 1 (CapMask: 0x1200 CapMask2: "
                + "0x0000000)\n").contains("PortXmitData:....................1099511627776\n")
                .contains("PortMulticastRcvPkts:");
    }

    @Test
    void perfqueryWithoutADestinationReadsTheLocalPort() {
        assertThat(run("perfquery")).isZero();
        assertThat(out.toString()).startsWith("# Port counters: Lid 1 port 0 (CapMask: 0x1200)\n");
    }

    @Test
    void aggregatesEmulateAllPortSelect() {
        // no AllPortSelect bit: -a reads ports 0..4 of the switch (enhanced port 0) and adds them up
        assertThat(run("perfquery", "-a", "1")).isZero();
        assertThat(out.toString()).startsWith("# Port counters: Lid 1 port 255 (CapMask: 0x1200)\n"
                + "PortSelect:......................255\n").contains("SymbolErrorCounter:..............3\n")
                .contains("PortXmitData:....................10000\n")
                .contains("PortXmitWait:....................25\n");
        assertThat(err.toString()).contains("main: Emulating AllPortSelect by iterating through all ports");
        assertThat(run("perfquery", "-l", "1", "1,3")).isZero();
        assertThat(out.toString()).contains("# Port counters: Lid 1 port 1 ").contains("# Port counters: Lid 1 "
                + "port 3 ").doesNotContain("port 255");
        assertThat(run("perfquery", "1", "255")).isEqualTo(255);
        assertThat(out.toString()).isEqualTo("perfquery: iberror: failed: AllPortSelect not supported\n");
    }

    @Test
    void resetsSetCounterSelect() {
        assertThat(run("perfquery", "-R", "2", "1")).isZero();
        assertThat(out.toString()).isEmpty();
        byte[] set = fabric.sent.get(1);
        assertThat(MadHeaders.method(set)).isEqualTo(Methods.SET);
        assertThat(MadHeaders.attributeId(set)).isEqualTo(AttributeIds.PORT_COUNTERS);
        assertThat(set[65]).isEqualTo((byte) 1);
        assertThat(set[66]).isEqualTo((byte) 0xff);
        assertThat(set[67]).isEqualTo((byte) 0xff);
        assertThat(set[64 + 18]).isEqualTo((byte) 0x01);        // PortXmitWait, CapMask bit 12
        assertThat(run("perfquery", "2", "1")).isZero();
        assertThat(out.toString()).contains("SymbolErrorCounter:..............0\n");

        assertThat(run("perfquery", "-R", "2", "1", "0xf000")).isZero();
        set = fabric.sent.get(1);
        assertThat(set[66]).isEqualTo((byte) 0xf0);
        assertThat(set[67]).isEqualTo((byte) 0x00);
        assertThat(set[64 + 18]).isZero();

        assertThat(run("perfquery", "-x", "-r", "2", "1")).isZero();
        assertThat(out.toString()).startsWith("# Port extended counters: Lid 2 port 1");
        set = fabric.sent.get(2);
        assertThat(MadHeaders.attributeId(set)).isEqualTo(AttributeIds.PORT_COUNTERS_EXTENDED);
        assertThat(MadHeaders.method(set)).isEqualTo(Methods.SET);
        // CounterSelect2 of the extended counters: 0xfff plus PortXmitWait's bit 12
        assertThat(set[64 + 4]).isZero();
        assertThat(set[64 + 6]).isEqualTo((byte) 0x1f);
        assertThat(set[64 + 7]).isEqualTo((byte) 0xff);
    }

    @Test
    void details() {
        assertThat(run("perfquery", "-D", "2", "1")).isZero();
        assertThat(out.toString()).startsWith("# PortXmitDiscardDetails counters: Lid 2 port 1\n");
        assertThat(run("perfquery", "-E", "2", "1")).isZero();
        assertThat(out.toString()).startsWith("# PortRcvErrorDetails counters: Lid 2 port 1\n");
    }

    // ---- attaching

    @Test
    void withNothingToAttachToTheDefaultFabricsTwinAnswers() {
        TransportOptions t = new TransportOptions();
        t.env = Map.of();
        assertThat(t.target().isInProcess()).isTrue();
        assertThat(t.target().fabric()).isNull();
        DiagCommand.opener = o -> {
            o.env = Map.of();
            return o.open();
        };
        // the built-in default fabric, brought up by ibtwin's SM: node001 is the first CA
        assertThat(run("smpquery", "nodedesc", "-D", "0")).isZero();
        assertThat(out.toString()).isEqualTo("Node Description:..................node001 mlx5_0\n");
    }

    @Test
    void inProcessTwinAtANamedNodeOrAFabricFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        DiagCommand.opener = o -> {
            o.env = Map.of("SIM_HOST", "node017");
            return o.open();
        };
        assertThat(run("smpquery", "nodedesc", "-D", "0")).isZero();
        assertThat(out.toString()).isEqualTo("Node Description:..................node017 mlx5_0\n");

        java.nio.file.Path topo = dir.resolve("pair.topo");
        org.ibtwin.format.TopologyWriter.write(org.ibtwin.gen.Shapes.backToBack(org.ibtwin.model.LinkSpeed.HDR), topo);
        DiagCommand.opener = o -> {
            o.env = Map.of();
            o.fabric = topo.toString();
            return o.open();
        };
        assertThat(run("smpquery", "portinfo", "-D", "0,1")).isZero();
        assertThat(out.toString()).contains("LinkState:.......................Active");

        DiagCommand.opener = o -> {
            o.env = Map.of();
            o.fabric = dir.resolve("missing.topo").toString();
            return o.open();
        };
        assertThat(run("smpquery", "nodedesc", "1")).isEqualTo(2);
        assertThat(err.toString()).contains("missing.topo: no such file");

        DiagCommand.opener = o -> {
            o.env = Map.of("SIM_HOST", "nosuchnode");
            return o.open();
        };
        assertThat(run("smpquery", "nodedesc", "1")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown node");
    }

    @Test
    void targetsFromOptionsAndEnvironment() {
        TransportOptions t = new TransportOptions();
        t.env = Map.of("IBSIM_SERVER_PORT", "17201", "SIM_HOST", "H1");
        assertThat(t.target()).isEqualTo(new TransportOptions.Target("127.0.0.1", 17201, "H1"));
        t.env = Map.of("IBSIM_SERVER_NAME", "10.1.2.3");
        assertThat(t.target()).isEqualTo(new TransportOptions.Target("10.1.2.3", 7070, null));
        t.ibsim = "localhost:17250";
        t.simHost = "S1";
        assertThat(t.target()).isEqualTo(new TransportOptions.Target("localhost", 17250, "S1"));
        t.ibsim = "17260";
        assertThat(t.target().port()).isEqualTo(17260);
        t.ibsim = "host:x";
        org.assertj.core.api.Assertions.assertThatThrownBy(t::target).hasMessage("--ibsim host:x: not an ibsim "
                + "port (1-65525)");
        // ibsim's local mode: --ibsim @NAME, or IBSIM_SOCKNAME without the server variables
        t.ibsim = "@lab";
        assertThat(t.target()).isEqualTo(TransportOptions.Target.local("lab", "S1"));
        assertThat(t.target().isLocal()).isTrue();
        assertThat(t.target().isInProcess()).isFalse();
        assertThat(t.target()).hasToString("ibsim at @lab");
        t.ibsim = "@";
        org.assertj.core.api.Assertions.assertThatThrownBy(t::target).hasMessageStartingWith("--ibsim @: not an ibsim "
                + "socket name");
        t.ibsim = null;
        t.simHost = null;
        t.env = Map.of("IBSIM_SOCKNAME", "sim");
        assertThat(t.target()).isEqualTo(TransportOptions.Target.local("sim", null));
        t.env = Map.of("IBSIM_SOCKNAME", "sim", "IBSIM_SERVER_PORT", "17201");
        assertThat(t.target()).isEqualTo(new TransportOptions.Target("127.0.0.1", 17201, null));
    }

    @Test
    void noIbsimListeningIsAFailedOpen() {
        DiagCommand.opener = o -> {
            o.env = Map.of();
            o.ibsim = "127.0.0.1:17299";
            return o.open();
        };
        assertThat(run("smpquery", "-C", "mlx5_0", "-P", "1", "nodeinfo", "1")).isEqualTo(255);
        assertThat(out.toString()).isEqualTo("smpquery: iberror: failed: Failed to open 'mlx5_0' port '1'\n");
        assertThat(err.toString()).contains("can't attach to ibsim at 127.0.0.1:17299");
    }
}
