package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ibtwin.cli.Main;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.lab.Lab;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.sim.IbsimServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/**
 * The perftest tools over the fabric as real OpenSM routed it: the lab without an SM of ours serves the default
 * fabric's twin on its ibsim endpoint (as {@code ibtwin sim} does), real {@code opensm -o} routes it, and
 * {@code ibtwin ib_write_bw --ibsim ... --why} names exactly the switch/port hops real {@code ibtracert} shows. The
 * console pulls a cable on that path: the next run fails as RC fails when the packets go nowhere, naming the port;
 * after OpenSM sweeps again, the run names the new path, and ibtracert agrees. Ports 18300..18389.
 */
@Tag("interop")
@Timeout(180)
class PerfOpensmInteropTest extends InteropTest {
    static final int FIRST_PORT = 18300;
    static final int LAST_PORT = 18389;
    private static final Pattern HOP = Pattern.compile("^\\[(\\d+)\\] -> (switch|ca) port \\{0x[0-9a-f]+\\}\\[(\\d+)\\]"
            + ".*\"([^\"]*)\"$");

    static Path ibtracert;

    private Lab lab;

    @BeforeAll
    static void findTools() {
        tools = RealTools.findOrSkip();
        ibtracert = RealTools.executable("ibtracert").orElse(null);
        org.junit.jupiter.api.Assumptions.assumeTrue(ibtracert != null, "ibtracert not installed");
    }

    @Test
    void ibWriteBwNamesTheHopsIbtracertShowsBeforeAndAfterACablePull() throws Exception {
        Fabric f = FabricFiles.loadDefault();
        try (Lab l = Lab.of(f).noSm().start()) {
            lab = l;
            IbsimServer server = null;
            for (int attempt = 0; server == null; attempt++) {
                try {
                    server = lab.serve(null, RemoteIbsim.freeRange(FIRST_PORT, LAST_PORT), Duration.ZERO);
                } catch (IllegalArgumentException e) {
                    if (attempt >= 8) {
                        throw e;
                    }
                }
            }
            int port = server.port();
            UmadClient c = new UmadClient(tools.umad2sim, port, dir, null, Duration.ofSeconds(60));
            assertThat(c.run(tools.opensm, "-o", "-f", dir.resolve("opensm-1.log").toString()).exit()).isZero();

            String first = route(port, "node027", "node001");
            assertThat(first).isEqualTo(ibtracert(c, f, "node001", "node027"));
            assertThat(first).contains(" -> ");

            // pull, through the console, the cable into the path's third switch ("leaf02 33/7": its port 33)
            String[] hop = first.split(" -> ")[2].split(" ");
            String sw = nodeId(f, hop[0]);
            int in = Integer.parseInt(hop[1].split("/")[0]);
            StringWriter console = new StringWriter();
            assertThat(lab.console(new PrintWriter(console, true)).execute("Unlink \"" + sw + "\"[" + in + "]"))
                    .isTrue();
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            assertThat(run(out, err, "ib_write_bw", "--ibsim", "127.0.0.1:" + port, "node027", "node001", "--why"))
                    .isEqualTo(1);
            assertThat(err.toString()).contains(" Failed status 12: wr_id 0 syndrom 0x81")
                    .containsPattern("# ibtwin: no route from node001/1 to node027/1: it stops at \\S+, its link is "
                            + "down \\(from the live LFTs of ibsim at 127.0.0.1:" + port);

            assertThat(c.run(tools.opensm, "-o", "-f", dir.resolve("opensm-2.log").toString()).exit()).isZero();
            String second = route(port, "node027", "node001");
            assertThat(second).isNotEqualTo(first).isEqualTo(ibtracert(c, f, "node001", "node027"));
        }
    }

    /** The hops ib_write_bw --why names, client to server: "leaf01 1/27 -> spine01 4/17 -> leaf02 33/7". */
    private static String route(int port, String server, String client) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(run(out, err, "ib_write_bw", "--ibsim", "127.0.0.1:" + port, server, client, "--why"))
                .as(err.toString()).isZero();
        for (String l : out.toString().split("\n")) {
            if (l.startsWith("# ibtwin: route ")) {
                assertThat(l).contains("(from the live LFTs of ibsim at 127.0.0.1:" + port);
                String hops = l.substring("# ibtwin: route ".length(), l.indexOf(" ("));
                List<String> parts = List.of(hops.split(" -> "));
                return String.join(" -> ", parts.subList(1, parts.size() - 1));
            }
        }
        throw new AssertionError("no route line:\n" + out);
    }

    /** The same, from real ibtracert between the hosts' LIDs. */
    private String ibtracert(UmadClient c, Fabric f, String from, String to) throws Exception {
        UmadClient.Result r = c.run(ibtracert, Integer.toString(lid(from)), Integer.toString(lid(to)));
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = List.of(r.out().split("\n"));
        List<String> hops = new ArrayList<>();
        String sw = null;
        int in = 0;
        for (String l : lines) {
            Matcher m = HOP.matcher(l.strip());
            if (!m.matches()) {
                continue;
            }
            if (sw != null) {
                hops.add(sw + " " + in + "/" + m.group(1));
            }
            sw = m.group(2).equals("switch") ? m.group(4) : null;
            in = Integer.parseInt(m.group(3));
        }
        return String.join(" -> ", hops);
    }

    /** The LID OpenSM gave the host's port 1, as the twin holds it. */
    private int lid(String host) {
        Node n = lab.fabric().cas().stream().filter(x -> x.description().startsWith(host + " ")).findFirst()
                .orElseThrow();
        return lab.twin().lid(n.name(), 1);
    }

    private static String nodeId(Fabric f, String description) {
        return f.nodes().stream().filter(n -> n.description().equals(description)).findFirst().orElseThrow().name();
    }

    private static int run(StringWriter out, StringWriter err, String... args) {
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }
}
