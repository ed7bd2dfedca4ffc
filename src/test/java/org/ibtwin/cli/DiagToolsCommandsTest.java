package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.ibtwin.diag.FakeFabric;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * ibstat, ibaddr, sminfo, ibportstate, ibroute and ibtracert against the in-memory {@link FakeFabric}: what they
 * print and how they fail. The byte-for-byte comparison with the real tools is DiagToolsInteropTest's.
 */
class DiagToolsCommandsTest extends CliTest {
    @BeforeEach
    void fake() {
        DiagCommand.opener = t -> new FakeFabric();
    }

    @Test
    void hostToolsShowTheAttachedNode() {
        assertThat(run("ibstat")).isZero();
        assertThat(out.toString()).startsWith("Switch 'fake0'\n\tSwitch type: MT0\n\tNumber of ports: 0\n")
                .contains("\tPort 0:\n\t\tState: Active\n", "\t\tBase lid: 1\n");
        assertThat(run("ibstat", "-p")).isZero();
        assertThat(out.toString()).isEqualTo("0x0000000000000010\n");
        assertThat(run("ibstat", "-l")).isZero();
        assertThat(out.toString()).isEqualTo("fake0\n");
        assertThat(run("ibstat", "fake0", "3")).isEqualTo(255);
        assertThat(err.toString()).contains("ca_stat: Switch: 'fake0' has no port number 3 - max (0)",
                "main: stat of IB device 'fake0' failed: No such file or directory");
        assertThat(run("ibstatus", "fake0:0")).isZero();
        assertThat(out.toString()).startsWith("Infiniband device 'fake0' port 0 status:\n"
                + "\tdefault gid:\t fe80:0000:0000:0000:0000:0000:0000:0010\n\tbase lid:\t 0x1\n");
        assertThat(run("ibv_devinfo", "-l")).isZero();
        assertThat(out.toString()).isEqualTo("1 HCA found:\n\tfake0\n\n");
        assertThat(run("ibstat", "--json")).isZero();
        assertThat(out.toString()).contains("\"name\" : \"fake0\"", "\"lid\" : 1");
    }

    @Test
    void addressesAndSmInfo() {
        assertThat(run("ibaddr")).isZero();
        assertThat(out.toString()).isEqualTo("GID fe80::10 LID start 0x1 end 0x1\n");
        assertThat(run("ibaddr", "-L", "2")).isZero();
        assertThat(out.toString()).isEqualTo("LID start 2 end 2\n");
        assertThat(run("ibaddr", "-g", "2")).isZero();
        assertThat(out.toString()).isEqualTo("GID fe80::21 \n");
        assertThat(run("ibaddr", "-t", "50", "7")).isEqualTo(255);
        assertThat(out.toString()).isEqualTo("ibaddr: iberror: failed: can't resolve requested address\n");
        assertThat(run("sminfo", "-t", "50")).isEqualTo(255);
        assertThat(out.toString()).isEqualTo("sminfo: iberror: failed: query\n");
        assertThat(run("sminfo", "--help")).isZero();
        assertThat(out.toString()).contains("-s, --state=<0-3>");
    }

    @Test
    void portStateRoutesAndTraces() {
        assertThat(run("ibportstate", "2", "1")).isZero();
        assertThat(out.toString()).startsWith("CA/RT PortInfo:\n# Port info: Lid 2 port 1\n"
                + "LinkState:.......................Active\n").contains("Mkey:............................"
                + "<not displayed>\n");
        assertThat(run("ibportstate", "2", "1", "frob")).isEqualTo(255);
        assertThat(out.toString()).isEqualTo("ibportstate: iberror: failed: invalid operation: frob\n");
        assertThat(run("ibportstate", "2")).isEqualTo(2);
        assertThat(run("ibroute", "1")).isZero();
        assertThat(out.toString()).isEqualTo("Unicast lids [0x0-0x2] of switch Lid 1 guid 0x0000000000000010 (sw):\n"
                + "  Lid  Out   Destination\n       Port     Info \n"
                + "0x0001 000 : (Switch portguid 0x0000000000000010: 'sw')\n"
                + "0x0002 001 : (Channel Adapter portguid 0x0000000000000021: 'ca x')\n2 valid lids dumped \n");
        assertThat(run("ibroute", "2")).isEqualTo(255);
        assertThat(out.toString()).isEqualTo("ibroute: iberror: failed: dump tables: not a switch\n");
        assertThat(run("ibtracert", "2", "1")).isZero();
        assertThat(out.toString()).isEqualTo("From ca {0x0000000000000020} portnum 1 lid 2-2 \"ca x\"\n"
                + "[1] -> switch port {0x0000000000000010}[1] lid 1-1 \"sw\"\n"
                + "To switch {0x0000000000000010} portnum 0 lid 1-1 \"sw\"\n");
        assertThat(run("ibtracert", "-n", "1", "2")).isZero();
        assertThat(out.toString()).isEqualTo("From {0x0000000000000010}[0]\n[1] -> {0x0000000000000021}[1]\n"
                + "To {0x0000000000000020}[1]\n");
        assertThat(run("ibtracert", "-t", "50", "1", "9")).isEqualTo(255);
        assertThat(out.toString()).isEqualTo("ibtracert: iberror: failed: Failed to get route information\n");
        assertThat(err.toString()).contains("find_route: can't reach to/from ports",
                "get_route: can't find a route from src to dest");
    }

    @Test
    void queryErrorsOverTheScan() {
        assertThat(run("ibqueryerrors", "--skip-sl", "--threshold-file", "/dev/null")).isIn(0, 1);
        assertThat(out.toString()).contains("## Summary: 1 nodes checked, ").endsWith("## Suppressed:\n");
        assertThat(run("ibqueryerrors", "--skip-sl", "--json", "-c")).isIn(0, 1);
        assertThat(out.toString()).contains("\"nodesChecked\" : 1",
                "\"suppressed\" : [ \"PortRcvSwitchRelayErrors\" ]");
    }
}
