package org.ibtwin.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.model.LinkLayer;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.PhysState;
import org.ibtwin.model.PortCounter;
import org.ibtwin.model.PortState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConsoleTest {
    final SmBench b = new SmBench();
    final StringWriter text = new StringWriter();
    final Console console = new Console(b.twin, null, new PrintWriter(text));

    @TempDir
    Path dir;

    @AfterEach
    void close() {
        b.close();
    }

    /** Runs a line and returns what it printed. */
    String run(String line) {
        int from = text.getBuffer().length();
        assertThat(console.execute(line)).isTrue();
        return text.getBuffer().substring(from);
    }

    void fails(String line, String message) {
        int from = text.getBuffer().length();
        assertThatThrownBy(() -> console.execute(line)).as(line).isInstanceOf(Console.CommandException.class)
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThat(text.getBuffer().substring(from)).as("a bad line prints nothing itself").isEmpty();
    }

    String id(String name) {
        return b.name(name);
    }

    @Test
    void helpListsIbsimsCommandsAndOurs() {
        String h = run("Help");
        assertThat(h).contains("Link \"node\"[port]", "Unlink", "ReLink", "Error", "PerformanceSet", "Route",
                "Dump", "flap", "cable", "reboot", "ethernet", "kill-sm", "clients", "counters", "source", "Quit");
        assertThat(run("?")).isEqualTo(h);
        assertThat(run("HELP")).as("any case").isEqualTo(h);
    }

    @Test
    void blankLinesAndCommentsDoNothingAndQuitEnds() {
        assertThat(run("")).isEmpty();
        assertThat(run("   # a comment \"with quotes")).isEmpty();
        assertThat(console.execute("Quit")).isFalse();
        assertThat(console.execute("exit")).isFalse();
    }

    @Test
    void dumpShowsNodesPortsAndOneSwitchsLft() {
        String all = run("Dump");
        assertThat(all).contains("Switch 8 \"" + id("leaf01") + "\"", "Hca 1 \"" + id("node003") + "\"",
                "#  dumped 11 nodes", "\"Sma Port\"[0]", "4x EDR Active/LinkUp",
                "lid " + b.lidOf("node003") + " lmc 0 smlid 1 4x EDR Active/LinkUp");
        assertThat(all).doesNotContain("Forwarding table");
        String one = run("Dump \"leaf01\"");
        assertThat(one).contains("#  dumped 1 nodes", "#\tForwarding table 0-11: [0]FF [1]1 [2]0", "portchange 0");
        run("Unlink \"leaf02\"[8]");
        assertThat(run("Dump leaf02")).contains("# unplugged from \"" + id("spine01") + "\"[8]");
        fails("Dump nosuch", "unknown node \"nosuch\"");
    }

    @Test
    void routeFollowsTheLftsAsIbsimPrintsIt() {
        int from = b.lidOf("node001");
        int to = b.lidOf("node008");
        String r = run("Route " + from + " " + to);
        assertThat(r.lines()).containsExactly(
                "From node \"" + id("node001") + "\" port 1 lid " + from,
                "[1] -> \"" + id("leaf01") + "\"[1]",
                "[5] -> \"" + id("spine01") + "\"[1]",
                "[5] -> \"" + id("leaf02") + "\"[5]",
                "[4] -> \"" + id("node008") + "\"[1]",
                "To node \"" + id("node008") + "\" port 1 lid " + to);
        assertThat(run("route " + from + " " + b.lidOf("leaf02"))).contains("To node \"" + id("leaf02") + "\" port 0");
        fails("Route 1", "bad params. Usage: route from-lid lid");
        fails("Route x 2", "bad lid value");
        fails("Route 1 999", "to/from lid unconfigured");
        run("down leaf02 5");
        int before = text.getBuffer().length();
        assertThatThrownBy(() -> console.execute("Route " + from + " " + to))
                .hasMessage("Bad out port state found: node \"" + id("spine01") + "\" outport 5 state 1");
        assertThat(text.getBuffer().substring(before)).as("the hops up to there, as ibsim prints them")
                .endsWith("[5] -> \"" + id("spine01") + "\"[1]\n");
    }

    @Test
    void unlinkRelinkAndLinkAsInIbsim() {
        assertThat(run("Unlink \"leaf02\"[8]")).contains("unlinked");
        assertThat(b.twin.linkStatus("leaf02", 8).isLinked()).isFalse();
        fails("Unlink \"leaf02\"[8]", "port 8 of \"leaf02\" is not linked");
        assertThat(run("ReLink \"" + id("spine01") + "\"[8]")).contains("4xEDR");
        assertThat(run("Unlink node003")).contains("unlinked 1 ports");
        assertThat(run("ReLink node003")).contains("relinked 1 ports");
        assertThat(b.twin.physState("node003", 1)).isEqualTo(PhysState.LINK_UP);
        run("Unlink \"leaf01\"[8]");
        run("Unlink \"leaf02\"[8]");
        assertThat(run("Link \"leaf01\"[8] \"leaf02\"[8]")).contains("<->", "4xEDR");
        assertThat(b.twin.linkStatus("leaf01", 8).remoteNode()).isEqualTo(id("leaf02"));
        fails("Link \"leaf01\"[7] \"spine01\"[8]", "already linked");
        fails("Link \"leaf01\"[7]", "usage: Link");
        fails("Link \"leaf01\" \"spine01\"[8]", "no port for \"leaf01\"");
        fails("Unlink \"leaf01\"[99]", "has no port 99");
        fails("Unlink", "usage: Unlink");
    }

    @Test
    void errorSetsADropRateAPortAndOptionallyAnAttribute() {
        assertThat(run("Error \"leaf02\"[0] 100")).contains("error rate 100% at 1 port");
        assertThat(b.mini.get(AttributeIds.NODE_INFO, 0, 1, 5, 5)).isNull();
        run("Error \"leaf02\"[0] 0");
        assertThat(b.mini.get(AttributeIds.NODE_INFO, 0, 1, 5, 5)).isNotNull();
        assertThat(run("Error leaf02 100 21")).contains("for attribute 0x0015 at 9 ports");
        assertThat(b.mini.get(AttributeIds.NODE_INFO, 0, 1, 5, 5)).isNotNull();
        assertThat(b.mini.get(AttributeIds.PORT_INFO, 0, 1, 5, 5)).isNull();
        assertThat(b.twin.dropRates()).hasSize(9);
        run("Error leaf02 0");
        assertThat(b.twin.dropRates()).isEmpty();
        fails("Error leaf02 101", "error rate must be in [0..100] range (101)");
        fails("Error leaf02", "usage: Error");
        fails("Error leaf02 much", "error rate is not a number");
        fails("Error \"node003\"[0] 5", "bad port number 0 at nodeid \"node003\"");
    }

    @Test
    void performanceSetSetsCountersAsIbsimDoesSaturating() {
        assertThat(run("PerformanceSet \"node003\"[1] PortCounters.SymbolErrorCounter=70000"))
                .isEqualTo(id("node003") + "[1] PortCounters.SymbolErrorCounter has been set to 65535\n");
        assertThat(b.twin.counter("node003", 1, PortCounter.SYMBOL_ERROR)).isEqualTo(65535);
        run("PerformanceSet \"leaf01\"[3] portcounters.PortXmitWait=0x10");
        assertThat(b.twin.counter("leaf01", 3, PortCounter.XMIT_WAIT)).isEqualTo(16);
        run("PerformanceSet \"leaf01\"[3] PortCountersExtended.PortMultiCastRcvPkts=12345678901");
        assertThat(b.twin.extendedCounter("leaf01", 3, ExtCounter.MULTICAST_RCV_PKTS)).isEqualTo(12345678901L);
        fails("PerformanceSet \"leaf01\"[3] PortCounters.Bogus=1", "field Bogus cannot be found in attribute");
        fails("PerformanceSet \"leaf01\"[3] Nope.X=1", "attribute Nope not found");
        fails("PerformanceSet \"leaf01\"[3] PortVLOpData.PortVLOpData1=1", "not kept by the twin");
        fails("PerformanceSet \"leaf01\"[3] PortCounters.SymbolErrorCounter=x", "is not valid integer");
        fails("PerformanceSet \"leaf01\" PortCounters.SymbolErrorCounter=1", "command does not match");
        fails("PerformanceSet \"leaf01\"[3] PortCounters", "command does not match");
    }

    @Test
    void flapCableDownUpRebootEthernetAndCounters() {
        assertThat(run("flap leaf01 8 2")).contains("flapped \"leaf01\"[8] 2 times: 4xEDR, LinkDowned 2");
        assertThat(run("flap \"leaf01\"[8]")).contains("LinkDowned 3");
        assertThat(run("cable leaf02 8 DDR 4x")).contains("replugged with a 4xDDR cable: 4xDDR (could be 4xEDR)");
        assertThat(b.twin.activeSpeed("spine01", 8)).isEqualTo(LinkSpeed.DDR);
        assertThat(run("down node003 1")).contains("down");
        assertThat(b.twin.portState("node003", 1)).isEqualTo(PortState.DOWN);
        assertThat(run("up node003 1")).contains("4xEDR");
        assertThat(run("ethernet node004 1")).contains("runs Ethernet: down");
        assertThat(b.twin.linkLayer("node004", 1)).isEqualTo(LinkLayer.ETHERNET);
        assertThat(run("infiniband node004 1")).contains("runs InfiniBand: 4xEDR");
        assertThat(run("reboot leaf02")).contains("rebooted");
        assertThat(b.twin.lid("leaf02", 0)).isZero();
        String c = run("counters leaf01 8");
        assertThat(c).startsWith("# Port counters: Lid " + b.lidOf("leaf01") + " port 8")
                .containsPattern("LinkDownedCounter:\\.+3\n");
        fails("flap leaf01", "no port for \"leaf01\"");
        fails("flap leaf01 8 0", "flap count must be in");
        fails("cable leaf02 8 FAST 4x", "unknown speed \"FAST\"");
        fails("cable leaf02 8 DDR 5x", "unknown width \"5x\"");
        fails("reboot node003", "is not a switch");
        fails("counters node003 2", "has no port 2");
        fails("ethernet leaf01 0", "has no link");
    }

    @Test
    void killSmAndTraps() {
        assertThat(run("traps")).startsWith("no trap pending");
        run("down leaf02 8");
        b.twin.killSms();
        b.twin.resendTraps();
        assertThat(run("traps")).contains("trap 128 from \"" + id("leaf02") + "\"[0]", "sent 2 times");
        fails("kill-sm", "no SM is attached");
        TwinTransport standby = new TwinTransport(b.twin.attach("node005", 1));
        standby.attachment().setIsSm(true);
        fails("kill-sm node001", "no SM is attached at \"node001\"");
        assertThat(run("kill-sm node005")).contains("killed 1 SM (" + id("node005") + ")");
        assertThat(run("clients")).isEqualTo("no ibsim endpoint\n");
        fails("X 3", "bad clientid 3");
        standby.close();
    }

    @Test
    void badLinesAreOneLineEach() {
        fails("bogus", "unknown command \"bogus\"");
        fails("flap \"leaf01 8", "unclosed quote");
        fails("flap \"leaf01\"[8 2", "missing ']'");
        fails("flap \"leaf01\"[x]", "bad port");
        fails("flap \"leaf01\"x 8", "unexpected 'x'");
        fails("flap nosuch 1", "unknown node \"nosuch\"");
        fails("Wait 0", "wait: bad param 0");
        fails("source", "usage: source <file>");
        fails("!", "needs a file name");
    }

    @Test
    void theInteractiveConsolePrintsAnErrorAndGoesOn() throws IOException {
        console.run(new BufferedReader(new StringReader("bogus\nflap leaf01 8\nQuit\nflap leaf01 8\n")));
        assertThat(text.toString()).contains("sim> error: unknown command \"bogus\" (Help lists the commands)\nsim> ")
                .contains("LinkDowned 1");
        assertThat(b.twin.counter("leaf01", 8, PortCounter.LINK_DOWNED)).as("nothing after Quit").isEqualTo(1);
    }

    @Test
    void aScriptRunsItsLinesAndStopsAtTheFirstBadOneWithFileAndLine() throws IOException {
        Path s = dir.resolve("faults.txt");
        Files.writeString(s, "# faults\nflap leaf01 8\n\nflap leaf01 nine\nflap leaf01 8\n");
        assertThatThrownBy(() -> console.runScript(s)).isInstanceOf(Console.ScriptException.class)
                .hasMessage(s + ":4: no port for \"leaf01\" (usage: flap <node> <port> [n])");
        assertThat(b.twin.counter("leaf01", 8, PortCounter.LINK_DOWNED)).isEqualTo(1);
        // the interactive console prints it as it is and goes on
        console.run(new BufferedReader(new StringReader("source " + s + "\nflap leaf01 8\n")));
        assertThat(text.toString()).contains("\n" + s + ":4: no port for").doesNotContain("error: " + s);
        assertThat(b.twin.counter("leaf01", 8, PortCounter.LINK_DOWNED)).isEqualTo(3);
    }

    @Test
    void scriptsNestByRelativePathsAndQuitStopsThemAll() throws IOException {
        Path sub = Files.createDirectories(dir.resolve("sub"));
        Files.writeString(sub.resolve("inner.txt"), "flap leaf01 8\nflap leaf01 99\n");
        Files.writeString(sub.resolve("outer.txt"), "source inner.txt\nflap leaf01 8\n");
        assertThatThrownBy(() -> console.runScript(sub.resolve("outer.txt")))
                .hasMessage("inner.txt:2: node \"leaf01\" has no port 99");
        Files.writeString(sub.resolve("quits.txt"), "!inner-ok.txt\nQuit\nflap leaf01 8\n");
        Files.writeString(sub.resolve("inner-ok.txt"), "flap leaf01 8\n");
        assertThat(console.runScript(sub.resolve("quits.txt"))).isFalse();
        assertThat(b.twin.counter("leaf01", 8, PortCounter.LINK_DOWNED)).isEqualTo(2);
        assertThatThrownBy(() -> console.runScript(dir.resolve("missing.txt")))
                .hasMessage(dir.resolve("missing.txt") + ": no such file");
        Files.write(dir.resolve("binary.txt"), new byte[] {(byte) 0xff, (byte) 0xfe, 'x', '\n'});
        assertThatThrownBy(() -> console.runScript(dir.resolve("binary.txt")))
                .hasMessage(dir.resolve("binary.txt") + ": not a text file (invalid UTF-8)");
        // a nested script that is not there (or cannot be read) is the outer script's line: both named
        Files.writeString(sub.resolve("outer2.txt"), "flap leaf01 8\n!gone.txt\n");
        assertThatThrownBy(() -> console.runScript(sub.resolve("outer2.txt"))).isInstanceOf(Console.ScriptException.class)
                .hasMessage(sub.resolve("outer2.txt") + ":2: gone.txt: no such file");
        Files.writeString(sub.resolve("outer3.txt"), "source ../binary.txt\n");
        assertThatThrownBy(() -> console.runScript(sub.resolve("outer3.txt")))
                .hasMessage(sub.resolve("outer3.txt") + ":1: ../binary.txt: not a text file (invalid UTF-8)");
        Files.writeString(dir.resolve("loop.txt"), "source loop.txt\n");
        assertThatThrownBy(() -> console.runScript(dir.resolve("loop.txt"))).hasMessageContaining("nested more than");
    }
}
