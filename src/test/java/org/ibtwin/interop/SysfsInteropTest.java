package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.ibtwin.cli.Main;
import org.ibtwin.cli.SysfsTree;
import org.ibtwin.transport.UmadSysfs;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ibstat and ibstatus on umad read sysfs as the real ones do, byte for byte, on two trees:
 * <ul>
 *   <li>libumad2sim's, against a real {@code ibsim -r}: the real ibstat under the preload beside ours over
 *       {@code --umad} in a JVM under the same preload, at a switch and at a CA. The real ibstatus is a shell script
 *       whose {@code [ -d ]} and {@code cd} the preload does not reach (under it, it finds "No devices"), so it
 *       reads the tree a libumad2sim client left on disk (a bash that read one file of it and exec'd, so no exit
 *       handler removed it) mounted over /sys/class in a user and mount namespace of its own
 *       ({@code unshare -rm});</li>
 *   <li>a hand-made mlx5 tree ({@link SysfsTree}: NDR and HDR rates, a Down port, high OUIs) mounted the same way
 *       for the real tools, and named by {@code -Dibtwin.sysfs} for ours.</li>
 * </ul>
 * Known to differ, and masked: the PIDs in ibwarn/ibpanic lines, libumad2sim's "attached as client" line on stderr,
 * and the path in ibstatus's "sys files not found" line, which names the directory read (the hand-made tree's,
 * where the real script, inside its namespace, names /sys/class).
 */
@Tag("interop")
class SysfsInteropTest {
    private static final int FIRST_PORT = 26500;
    private static final int LAST_PORT = 26540;
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    /** ibstat's argument lists compared (the CA of libumad2sim is ibsim0; of the hand-made tree mlx5_0/mlx5_1). */
    private static List<List<String>> ibstatRuns(String ca, String port, String badPort) {
        return List.of(List.of(), List.of("-p"), List.of("-l"), List.of("-s"), List.of(ca), List.of(ca, port),
                List.of(ca, badPort), List.of("-p", ca), List.of("nosuch0"));
    }

    private static List<List<String>> ibstatusRuns(String ca, String port) {
        return List.of(List.of(), List.of(ca), List.of(ca + ":" + port), List.of(ca + ":7"), List.of("nosuch0"));
    }

    @Test
    void underLibumad2simOurIbstatIsTheRealOne(@TempDir Path dir) throws Exception {
        RealTools tools = RealTools.findOrSkip();
        Assumptions.assumeTrue(Runtime.version().feature() >= 22, "the umad transport needs a JDK 22+");
        Path ibstat = RealTools.executable("ibstat").orElseThrow();
        try (RemoteIbsim sim = RemoteIbsim.start(tools.ibsim, net(dir), FIRST_PORT, LAST_PORT,
                List.of(), Duration.ofSeconds(30))) {
            for (String node : new String[] {null, "H-h2"}) {   // the switch (ibsim's first node), a CA
                UmadClient c = new UmadClient(tools.umad2sim, sim.port(), dir, node, TIMEOUT);
                String port = node == null ? "0" : "1";
                for (List<String> args : ibstatRuns("ibsim0", port, node == null ? "1" : "2")) {
                    UmadClient.Result real = c.run(ibstat, args.toArray(String[]::new));
                    UmadClient.Result ours = ours(c, "ibstat", args);
                    String what = "ibstat " + args + " at " + (node == null ? "the switch" : node);
                    assertThat(ours.exit()).as(what + ": " + ours.err()).isEqualTo(real.exit());
                    assertThat(ours.out()).as(what).isEqualTo(real.out());
                    assertThat(masked(ours.err())).as(what).isEqualTo(masked(real.err()));
                }
                // ibv_devinfo (no real one runs under libumad2sim: verbs is not simulated): over umad, sysfs and
                // the device's SMPs print what the ibsim client's SMPs alone print
                UmadClient.Result viaUmad = ours(c, "ibv_devinfo", List.of());
                List<String> viaIbsim = new ArrayList<>(List.of("ibv_devinfo", "--ibsim", "127.0.0.1:" + sim.port()));
                if (node != null) {
                    viaIbsim.addAll(List.of("--sim-host", node));
                }
                UmadInteropTest.Run client = UmadInteropTest.inProcess(viaIbsim.toArray(String[]::new));
                assertThat(viaUmad.exit()).as(viaUmad.err()).isEqualTo(client.exit());
                assertThat(viaUmad.out()).as("ibv_devinfo at " + node).isEqualTo(client.out());
            }
            // --gmp-pkey looks the P_Key up in libumad2sim's table (0xffff at index 0, the rest 0x0000)
            UmadClient c = new UmadClient(tools.umad2sim, sim.port(), dir, "H-h2", TIMEOUT);
            UmadClient.Result bad = ours(c, "perfquery", List.of("--gmp-pkey", "0x8001"));
            assertThat(bad.exit()).as(bad.err()).isEqualTo(2);
            assertThat(masked(bad.err())).isEqualTo("ibtwin perfquery: P_Key 0x8001 is not in ibsim0 port 1's P_Key "
                    + "table (/sys/class/infiniband/ibsim0/ports/1/pkeys)\n");
        }
    }

    @Test
    void underLibumad2simOurIbstatusIsTheRealScriptOnTheSameTree(@TempDir Path dir) throws Exception {
        RealTools tools = RealTools.findOrSkip();
        Assumptions.assumeTrue(Runtime.version().feature() >= 22, "the umad transport needs a JDK 22+");
        Path ibstatus = RealTools.executable("ibstatus").orElseThrow();
        assumeNamespaces(dir);
        try (RemoteIbsim sim = RemoteIbsim.start(tools.ibsim, net(dir), FIRST_PORT, LAST_PORT,
                List.of(), Duration.ofSeconds(30))) {
            UmadClient c = new UmadClient(tools.umad2sim, sim.port(), dir, "H-h2", TIMEOUT);
            Path sys = leftTree(c, dir);
            for (List<String> args : ibstatusRuns("ibsim0", "1")) {
                Result real = inNamespace(sys, dir, ibstatus, args);
                UmadClient.Result ours = ours(c, "ibstatus", args);
                assertThat(ours.exit()).as("ibstatus " + args + ": " + ours.err()).isEqualTo(real.exit());
                assertThat(ours.out()).as("ibstatus " + args).isEqualTo(real.out());
            }
        }
    }

    @Test
    void onAHandMadeMlx5TreeOursPrintWhatTheRealOnesPrint(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(Runtime.version().feature() >= 22, "the umad transport's libc needs a JDK 22+");
        Path ibstat = RealTools.executable("ibstat").orElse(null);
        Path ibstatus = RealTools.executable("ibstatus").orElse(null);
        if (ibstat == null || ibstatus == null) {
            RealTools.skip("INTEROP SKIPPED: ibstat/ibstatus not found (install infiniband-diags)");
        }
        assumeNamespaces(dir);
        Path sys = SysfsTree.write(dir.resolve("sys"));
        System.setProperty(UmadSysfs.ROOT_PROPERTY, sys.toString());
        try {
            for (List<String> args : ibstatRuns("mlx5_1", "2", "3")) {
                compareOnTree(sys, dir, ibstat, "ibstat", args);
            }
            for (List<String> args : ibstatusRuns("mlx5_1", "2")) {
                compareOnTree(sys, dir, ibstatus, "ibstatus", args);
            }
        } finally {
            System.clearProperty(UmadSysfs.ROOT_PROPERTY);
        }
    }

    private static void compareOnTree(Path sys, Path dir, Path exe, String tool, List<String> args)
            throws IOException, InterruptedException {
        Result real = inNamespace(sys.resolve("class"), dir, exe, args);
        List<String> cmd = new ArrayList<>(List.of(tool));
        cmd.addAll(args);
        cmd.add("--umad");
        UmadInteropTest.Run ours = UmadInteropTest.inProcess(cmd.toArray(String[]::new));
        String what = tool + " " + args + " on the hand-made tree";
        assertThat(ours.exit()).as(what + ": " + ours.err()).isEqualTo(real.exit());
        assertThat(ours.out().replace(sys + "/class/", "/sys/class/")).as(what).isEqualTo(real.out());
        assertThat(masked(ours.err())).as(what).isEqualTo(masked(real.err()));
    }

    private static Path net(Path dir) throws IOException {
        return Files.writeString(dir.resolve("net"), RemoteIbsim.FOUR_CAS);
    }

    /** ibtwin {@code tool args --umad} in a JVM of its own under the client's preload. */
    private static UmadClient.Result ours(UmadClient c, String tool, List<String> args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED", "-Xshare:auto",
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), Main.class.getName(), tool));
        cmd.addAll(args);
        cmd.add("--umad");
        return c.run(Path.of(System.getProperty("java.home"), "bin", "java"), cmd.toArray(String[]::new));
    }

    /**
     * The sysfs tree of a libumad2sim client left on disk: a bash under the preload reads one file of it (which
     * makes the library write the tree under ./sys-PID) and execs, so the library's exit handler never removes it.
     */
    private static Path leftTree(UmadClient c, Path dir) throws IOException, InterruptedException {
        Path log = dir.resolve("holder.out");
        Process p = c.start(Path.of("/bin/bash"), log, "-c",
                "read t < /sys/class/infiniband/ibsim0/node_type && echo \"$t\" && exec true");
        try {
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("the bash that reads libumad2sim's tree").isTrue();
        } finally {
            RealTools.stop(p);
        }
        Path sys = dir.resolve("sys-" + p.pid()).resolve("sys/class");
        assertThat(Files.isRegularFile(sys.resolve("infiniband/ibsim0/node_type"))).as(RealTools.read(log))
                .isTrue();
        return sys;
    }

    record Result(int exit, String out, String err) {
    }

    /** {@code exe args} with {@code classDir} mounted over /sys/class, in a user and mount namespace of its own. */
    private static Result inNamespace(Path classDir, Path dir, Path exe, List<String> args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("unshare", "-rm", "sh", "-c",
                "mount --bind \"$0\" /sys/class && exec \"$@\"", classDir.toString(), exe.toString()));
        cmd.addAll(args);
        Path out = Files.createTempFile(dir, "ns", ".out");
        Path err = Files.createTempFile(dir, "ns", ".err");
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        boolean done = p.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        if (!done) {
            RealTools.stop(p);
        }
        return new Result(done ? p.exitValue() : -1, RealTools.read(out), RealTools.read(err));
    }

    /** Skips (with a notice) where this user cannot make a user and mount namespace to mount a tree in. */
    private static void assumeNamespaces(Path dir) throws IOException, InterruptedException {
        Path probe = Files.createDirectories(dir.resolve("probe/infiniband"));
        Result r = inNamespace(probe.getParent(), dir, Path.of("/bin/ls"), List.of("/sys/class"));
        if (r.exit() != 0 || !r.out().strip().equals("infiniband")) {
            String notice = "INTEROP SKIPPED: unshare -rm cannot mount a sysfs tree here (" + r.err().strip() + ")";
            System.err.println(notice);
            Assumptions.abort(notice);
        }
    }

    /** stderr with the PIDs and libumad2sim's attach lines left out. */
    private static String masked(String err) {
        return err.replaceAll("\\[\\d+\\]", "[PID]").replaceAll("(?m)^ibwarn: \\[PID\\] sim_connect: .*\\n", "");
    }
}
