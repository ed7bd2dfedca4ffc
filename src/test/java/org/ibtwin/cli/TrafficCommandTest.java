package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ibtwin traffic} on the default fabric, and its errors. */
class TrafficCommandTest {
    /** Runs {@code ibtwin ARGS}, checks it exits 0 (its errors the message if not) and returns what it printed. */
    private static String ok(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Cli.execute(out, err, args);
        assertThat(code).as(err.toString()).isZero();
        return out.toString();
    }

    @Test
    void incastOnTheDefaultFabricShowsTheWaitingPort() {
        String s = ok("traffic", "incast", "4", "node002", "--speed", "0", "--seconds", "2", "--top", "3");
        assertThat(s).startsWith("traffic: incast 4 node002 stopped, 4 flows (0 without a path)")
                .contains("t=2.000 s simulated").contains("busiest ports");
        // node002 hangs off leaf01 port 2 in the default fabric: the wait is there
        assertThat(s).containsPattern("waits: leaf01/2, PortXmitWait \\+7\\d\\d,\\d{3} a second");
        assertThat(s).containsPattern("(?m)^  leaf01/2 .* [1-9][\\d,]+$");
    }

    @Test
    void aDdrInterSwitchLinkWaitsAtThePortSendingOntoIt() {
        // node007 -> node037 crosses spine01/17 -> leaf02/33, the default fabric's DDR link
        assertThat(ok("traffic", "pair", "node007", "node037", "--speed", "0", "--seconds", "1", "--top", "0"))
                .contains("limited by link leaf02/33 <-> spine01/17 at 4xDDR")
                .containsPattern("waits: spine01/17, PortXmitWait \\+9\\d\\d,\\d{3} a second")
                .containsOnlyOnce("waits:");
    }

    @Test
    void jsonCarriesTheFlows() {
        assertThat(ok("traffic", "pair", "node001", "node060", "--speed", "0", "--json"))
                .contains("\"pattern\" : \"pair node001 node060\"")
                .contains("\"simulatedSeconds\" : 10.0").contains("\"src\" : \"node001\"").contains("\"busiestPorts\"");
    }

    @Test
    void badInputIsOneLineAndExitTwo(@TempDir Path dir) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(Cli.executeAfresh(out, err, "traffic", "zigzag")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown pattern \"zigzag\"").doesNotContain("Exception");
        assertThat(Cli.executeAfresh(out, err, "traffic", "pair", "node001", "node999", "--speed", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown node \"node999\"");
        Path f = dir.resolve("t.flows");
        Files.writeString(f, "node001 node002\nnode003\n");
        assertThat(Cli.executeAfresh(out, err, "traffic", "file", f.toString(), "--speed", "0")).isEqualTo(2);
        assertThat(err.toString()).contains(f + ":2: expected \"src dst [rate Gb/s]\"");
        assertThat(Cli.executeAfresh(out, err, "traffic", "shift", "--seconds", "-1")).isEqualTo(2);
        assertThat(err.toString()).contains("--seconds must be > 0");
    }
}
