package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ibtwin.cli.Main;
import org.ibtwin.format.HighOuiFabric;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A dump whose GUIDs carry real NVIDIA OUIs (top bit set), served by {@code ibtwin sim <dump>} (the command, in a
 * process of its own) to the real infiniband-diags through libumad2sim: real ibswitches, ibhosts and ibnetdiscover
 * see every GUID the dump gives; ibtwin's ibnetdiscover prints the same topology, writes the same cache byte for
 * byte, and each reads the other's; the doctor, on the real tools' saved outputs and live, names the degraded
 * inter-switch link by the switches' real GUIDs; live snapshots keep every GUID, and their diff after a cable is
 * pulled at the sim's console names the link by them.
 */
@Tag("interop")
@Timeout(300)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HighOuiInteropTest {
    /** Control ports tried in turn; each sim takes the ten after it, all within 18000..18099. */
    private static final int[] PORTS = {18000, 18011, 18022, 18033, 18044};
    private static final long TOOL_SECONDS = 60;
    private static final String DEGRADED_LINE = "\nERROR    T04  " + HighOuiFabric.DEGRADED + "\n";
    private static final Pattern GUID = Pattern.compile("0x([0-9a-f]{1,16})\\b");

    @TempDir
    static Path dir;
    private RealTools tools;
    private Process sim;
    private Writer console;
    private Path simOut;
    private int port;
    private int runs;

    @BeforeAll
    void startSim() throws IOException, InterruptedException {
        tools = RealTools.findOrSkip();
        Path dump = HighOuiFabric.write(dir.resolve("edr.topo"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (int p : PORTS) {
            simOut = dir.resolve("sim-" + p + ".out");
            ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    Main.class.getName(), "sim", dump.toString(), "--port", Integer.toString(p), "--warmup", "0")
                    .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(simOut.toFile());
            for (String k : new String[] {"LD_PRELOAD", "IBSIM_SOCKNAME", "IBSIM_SERVER_NAME", "IBSIM_SERVER_PORT"}) {
                pb.environment().remove(k);
            }
            sim = pb.start();
            console = new OutputStreamWriter(sim.getOutputStream(), StandardCharsets.UTF_8);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (sim.isAlive() && !read(simOut).contains(RealTools.READY) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            if (sim.isAlive() && read(simOut).contains(RealTools.READY)) {
                port = p;
                return;
            }
            RealTools.stop(sim);
            if (!read(simOut).contains("is taken")) {
                fail("ibtwin sim did not start:\n" + read(simOut));
            }
        }
        fail("ibtwin sim found every port range in 18000..18054 taken");
    }

    @AfterAll
    void stopSim() {
        if (sim != null) {
            RealTools.stop(sim);
        }
    }

    @Test
    void realIbswitchesAndIbhostsShowTheDumpsGuids() throws IOException, InterruptedException {
        List<String> switches = new ArrayList<>();
        for (long g : HighOuiFabric.SWITCH_GUIDS) {
            switches.add(String.format("Switch\t: 0x%016x ports 36 \"SwitchIB Mellanox Technologies\" enhanced port 0 "
                    + "lid 0 lmc 0", g));
        }
        assertThat(real("ibswitches").split("\n")).containsExactlyInAnyOrderElementsOf(switches);
        List<String> hosts = new ArrayList<>();
        for (int i = 0; i < HighOuiFabric.CA_GUIDS.length; i++) {
            hosts.add(String.format("Ca\t: 0x%016x ports 1 \"host%02d mlx5_0\"", HighOuiFabric.CA_GUIDS[i], i + 1));
        }
        assertThat(real("ibhosts").split("\n")).containsExactlyInAnyOrderElementsOf(hosts);
    }

    @Test
    void ibnetdiscoverAndItsCachesKeepEveryGuidBothWays() throws IOException, InterruptedException {
        Path realCache = dir.resolve("real.cache");
        Path ourCache = dir.resolve("ours.cache");
        String real = real("ibnetdiscover", "--cache", realCache.toString());
        assertThat(guids(real)).containsExactlyInAnyOrderElementsOf(HighOuiFabric.allGuids());
        String ours = ours("ibnetdiscover", "--ibsim", "127.0.0.1:" + port, "--cache", ourCache.toString());
        assertThat(untimed(ours)).isEqualTo(untimed(real));
        assertThat(Files.readAllBytes(ourCache)).isEqualTo(Files.readAllBytes(realCache));
        assertThat(untimed(real("ibnetdiscover", "--load-cache", ourCache.toString()))).isEqualTo(untimed(real));
        assertThat(untimed(ours("ibnetdiscover", "--load-cache", realCache.toString()))).isEqualTo(untimed(real));
    }

    @Test
    void theDoctorNamesTheDegradedLinkByTheRealGuids() throws IOException, InterruptedException {
        Path saved = Files.createDirectories(dir.resolve("saved"));
        Files.writeString(saved.resolve("ibnetdiscover.txt"), real("ibnetdiscover"), StandardCharsets.UTF_8);
        Files.writeString(saved.resolve("iblinkinfo.txt"), real("iblinkinfo"), StandardCharsets.UTF_8);
        String offline = oursExit(1, "doctor", "--from", saved.toString());
        assertThat(offline).startsWith("ibtwin doctor: " + saved + " (14 nodes (6 switches, 8 CAs), 16 links)\n")
                .contains(DEGRADED_LINE).doesNotContain("0x0002c9fe");
        String live = oursExit(1, "doctor", "--ibsim", "127.0.0.1:" + port);
        assertThat(live).contains(DEGRADED_LINE).doesNotContain("0x0002c9fe");
    }

    @Test
    void liveSnapshotsKeepEveryGuidAndTheirDiffNamesThePulledCable() throws IOException, InterruptedException {
        Path a = dir.resolve("a.json");
        Path b = dir.resolve("b.json");
        ours("snapshot", "save", "--ibsim", "127.0.0.1:" + port, "-o", a.toString());
        JsonNode snap = new ObjectMapper().readTree(a.toFile());
        List<String> saved = new ArrayList<>();
        for (JsonNode n : snap.get("nodes")) {
            saved.add(n.get("guid").asText());
            for (JsonNode pt : n.get("ports")) {
                if (!n.get("type").asText().equals("Switch")) {
                    saved.add(pt.get("guid").asText());
                }
            }
        }
        assertThat(saved).containsExactlyInAnyOrderElementsOf(HighOuiFabric.allGuids());
        assertThat(guids(snap.get("topology").asText())).containsExactlyInAnyOrderElementsOf(HighOuiFabric.allGuids());
        consoleCommand("Unlink \"S-506b4b0300c0ff00\"[12]", "unlinked \"S-506b4b0300c0ff00\"[12]");
        try {
            ours("snapshot", "save", "--ibsim", "127.0.0.1:" + port, "-o", b.toString());
        } finally {
            consoleCommand("ReLink \"S-506b4b0300c0ff00\"[12]", "relinked \"S-506b4b0300c0ff00\"[12]");
        }
        String diff = oursExit(1, "snapshot", "diff", a.toString(), b.toString());
        assertThat(diff).contains("links gone (1):\n  SwitchIB Mellanox Technologies (0x506b4b0300c0ff00)/12 <-> "
                + "SwitchIB Mellanox Technologies (0x0002c90300d5e6f0)/4 4xEDR\n");
    }

    // ------------------------------------------------------------------------------------------------ helpers

    /** A real infiniband-diags tool against the sim; its stdout (it must exit 0). */
    private String real(String tool, String... args) throws IOException, InterruptedException {
        Optional<Path> exe = RealTools.executable(tool);
        if (exe.isEmpty()) {
            fail(tool + " not found (install " + RealTools.PACKAGES + ")");
        }
        List<String> cmd = new ArrayList<>(List.of(exe.orElseThrow().toString()));
        cmd.addAll(List.of(args));
        Path work = Files.createDirectories(dir.resolve("run" + ++runs));
        Path o = work.resolve("out");
        Path e = work.resolve("err");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(work.toFile()).redirectOutput(o.toFile())
                .redirectError(e.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Map<String, String> env = pb.environment();
        for (String k : new String[] {"IBSIM_SOCKNAME", "SIM_HOST", "SIM_SET_ISSM"}) {
            env.remove(k);
        }
        env.put("LD_PRELOAD", tools.umad2sim.toString());
        env.put("IBSIM_SERVER_NAME", "127.0.0.1");
        env.put("IBSIM_SERVER_PORT", Integer.toString(port));
        Process p = pb.start();
        if (!p.waitFor(TOOL_SECONDS, TimeUnit.SECONDS)) {
            RealTools.stop(p);
            fail(String.join(" ", cmd) + " still running after " + TOOL_SECONDS + " s");
        }
        assertThat(p.exitValue()).as(String.join(" ", cmd) + "\n" + read(e)).isZero();
        return read(o);
    }

    private String ours(String... args) {
        return oursExit(0, args);
    }

    /** ibtwin in process; its stdout, after checking its exit code. */
    private String oursExit(int expected, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        assertThat(cl.execute(args)).as("ibtwin " + String.join(" ", args) + "\n" + err + out).isEqualTo(expected);
        return out.toString();
    }

    /** Types a command at the sim's console and waits for its answer. */
    private void consoleCommand(String command, String answer) throws IOException, InterruptedException {
        int before = read(simOut).length();
        console.write(command + "\n");
        console.flush();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!read(simOut).substring(before).contains(answer)) {
            if (System.nanoTime() > deadline || !sim.isAlive()) {
                fail("ibtwin sim did not answer \"" + command + "\":\n" + read(simOut));
            }
            Thread.sleep(20);
        }
    }

    private static String untimed(String topology) {
        return topology.replaceAll("(?m)^# Topology file: generated on .*$", "");
    }

    /** The GUIDs a text names, each once, as 0x and 16 digits (ibnetdiscover drops leading zeros). */
    static List<String> guids(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = GUID.matcher(text.replaceAll("(?m)^(?:# Initiated from |vendid=|devid=).*$", "")
                .replaceAll("\\(([0-9a-f]{1,16})\\)", "(0x$1)"));
        while (m.find()) {
            out.add(String.format("0x%016x", Long.parseUnsignedLong(m.group(1), 16)));
        }
        return out.stream().distinct().toList();
    }

    private static String read(Path p) throws IOException {
        return Files.exists(p) ? Files.readString(p, StandardCharsets.ISO_8859_1) : "";
    }
}
