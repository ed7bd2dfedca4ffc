package org.ibtwin.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.ibtwin.bench.Processes;
import org.ibtwin.transport.IbsimClient;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.SlotSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real infiniband-diags, through the real libumad2sim in remote mode, against {@link IbsimServer} over
 * {@link FakeFabric}: the proof that what real programs send at attach time and with their MADs is served.
 */
@Tag("interop")
@Timeout(120)
class IbsimServerInteropTest {
    static final String PACKAGES = "infiniband-diags ibsim-utils";
    static final Duration RUN_TIMEOUT = Duration.ofSeconds(30);
    private static final AtomicInteger RUNS = new AtomicInteger();
    private static boolean noticeShown;

    @TempDir
    Path dir;
    FakeFabric fabric;
    IbsimServer server;
    Path umad2sim;
    /** The served basename once {@link #goLocal} has switched to ibsim's local mode; null in remote mode. */
    String localName;

    @BeforeEach
    void start() throws IOException {
        Optional<Path> so = umad2sim();
        Optional<Path> smpquery = executable("smpquery");
        List<String> missing = new ArrayList<>();
        if (so.isEmpty()) {
            missing.add("libumad2sim.so");
        }
        if (smpquery.isEmpty()) {
            missing.add("smpquery");
        }
        if (!missing.isEmpty()) {
            String what = String.join(", ", missing) + " not found (install " + PACKAGES + ")";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail("CI=true but " + what);
            }
            synchronized (IbsimServerInteropTest.class) {
                if (!noticeShown) {
                    System.err.println("INTEROP SKIPPED: " + what + "; IbsimServer interop tests not run");
                    noticeShown = true;
                }
            }
            Assumptions.assumeTrue(false, what);
        }
        umad2sim = so.orElseThrow();
        fabric = new FakeFabric();
        server = new IbsimServer(fabric);
        server.start(InetAddress.getLoopbackAddress(), 0);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        if (fabric != null) {
            fabric.close();
        }
    }

    record Run(String command, int exit, String out, String err, long millis) {
        @Override
        public String toString() {
            return "$ " + command + "\nexit " + exit + " after " + millis + " ms\nstdout:\n" + out + "stderr:\n" + err;
        }
    }

    /** Runs a real tool under libumad2sim pointed at our server; {@code simHost} null: the default node. */
    Run run(String simHost, String... cmd) throws IOException, InterruptedException {
        int n = RUNS.incrementAndGet();
        Path work = Files.createDirectories(dir.resolve("run" + n));  // libumad2sim writes ./sys-<pid> here
        Path out = work.resolve("out");
        Path err = work.resolve("err");
        List<String> command = new ArrayList<>(List.of(cmd));
        command.set(0, executable(cmd[0]).map(Path::toString).orElse(cmd[0]));
        ProcessBuilder pb = new ProcessBuilder(command).directory(work.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Map<String, String> env = pb.environment();
        pointAtServer(env);
        if (simHost != null) {
            env.put("SIM_HOST", simHost);
        }
        long t0 = System.nanoTime();
        Process p = pb.start();
        boolean done = p.waitFor(RUN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        if (!done) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        Run r = new Run((simHost == null ? "" : "SIM_HOST=\"" + simHost + "\" ") + String.join(" ", cmd),
                done ? p.exitValue() : -1, Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8), millis);
        if (!done) {
            fail("still running after " + RUN_TIMEOUT.toSeconds() + " s; killed\n" + r);
        }
        return r;
    }

    /** libumad2sim's environment for our server: remote mode's address, or local mode's basename. */
    void pointAtServer(Map<String, String> env) {
        for (String k : new String[] {"IBSIM_SOCKNAME", "IBSIM_SERVER_NAME", "IBSIM_SERVER_PORT", "SIM_HOST",
            "SIM_SET_ISSM"}) {
            env.remove(k);
        }
        env.put("LD_PRELOAD", umad2sim.toString());
        if (localName != null) {
            env.put("IBSIM_SOCKNAME", localName);
        } else {
            env.put("IBSIM_SERVER_NAME", "127.0.0.1");
            env.put("IBSIM_SERVER_PORT", Integer.toString(server.port()));
        }
    }

    /** Replaces the server by one in ibsim's local mode, over the same fabric, at a basename of this test's own. */
    void goLocal() throws IOException {
        Assumptions.assumeTrue(SlotSocket.implementation().equals("libc"),
                "ibsim's local mode needs C-library sockets (a JDK 22+ on Linux)");
        server.close();
        localName = "ibtwin-test-" + ProcessHandle.current().pid() + "-" + RUNS.incrementAndGet();
        server = new IbsimServer(fabric);
        server.startLocal(localName);
    }

    static String guid(long g) {
        return String.format("0x%016x", g);
    }

    @Test
    void smpqueryReadsTheNodeItIsAttachedAt() throws Exception {
        Run r = run(null, "smpquery", "-D", "nodeinfo", "0");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("Guid:............................" + guid(FakeFabric.SW1), "NodeType:", "Switch", "NumPorts:", "8");
        assertThat(server.clients()).as("libumad2sim disconnects at exit").isEmpty();
        assertThat(fabric.attachments).singleElement().satisfies(a -> assertThat(a.detached).isTrue());
    }

    @Test
    void smpqueryWalksToTheNeighbours() throws Exception {
        Run h1 = run(null, "smpquery", "-D", "nodeinfo", "0,1");
        assertThat(h1.exit()).as(h1.toString()).isZero();
        assertThat(h1.out()).contains(guid(FakeFabric.HOST1), "Channel Adapter", "LocalPort:", "1");
        Run far = run("H-0002c90300000200", "smpquery", "-D", "nodeinfo", "0,1,2");
        assertThat(far.exit()).as(far.toString()).isZero();
        assertThat(far.out()).contains(guid(FakeFabric.HOST2));
        Run byDesc = run("host2 HCA-1", "smpquery", "-D", "portinfo", "0");
        assertThat(byDesc.exit()).as(byDesc.toString()).isZero();
        assertThat(byDesc.out()).containsPattern("Lid:\\.+12\\b").contains("Active");
    }

    @Test
    void smpqueryByLid() throws Exception {
        Run r = run("H-0002c90300000210", "smpquery", "nodeinfo", "11");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains(guid(FakeFabric.HOST1));
        assertThat(fabric.sent).anySatisfy(s -> assertThat(s.to()).isEqualTo(MadAddress.smp(11)));
    }

    @Test
    void aDeadEndFailsAtOnceAsOnIbsim() throws Exception {
        Run r = run(null, "smpquery", "-D", "nodeinfo", "0,5");
        assertThat(r.exit()).as(r.toString()).isNotZero();
        assertThat(r.millis()).as("bounced with status 110, not timed out").isLessThan(3000);
    }

    @Test
    void anUnknownSimHostIsRefused() throws Exception {
        Run r = run("no-such-node", "smpquery", "-D", "nodeinfo", "0");
        assertThat(r.exit()).as(r.toString()).isNotZero();
        assertThat(server.clients()).isEmpty();
    }

    @Test
    void severalRealClientsAtOnceBesideOurOwn() throws Exception {
        try (IbsimClient own = IbsimClient.connect("127.0.0.1", server.port(), "H-0002c90300000210", true,
                Duration.ofSeconds(2))) {
            List<CompletableFuture<Run>> runs = new ArrayList<>();
            String[] paths = {"0", "0,1", "0,2", "0,1", "0", "0,2"};
            for (String path : paths) {
                runs.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        return run(null, "smpquery", "-D", "nodeinfo", path);
                    } catch (IOException | InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }));
            }
            long[] expect = {FakeFabric.SW1, FakeFabric.HOST1, FakeFabric.HOST2, FakeFabric.HOST1, FakeFabric.SW1,
                FakeFabric.HOST2};
            for (int i = 0; i < paths.length; i++) {
                Run r = runs.get(i).get();
                assertThat(r.exit()).as(r.toString()).isZero();
                assertThat(r.out()).contains(guid(expect[i]));
            }
            assertThat(server.clients()).as("only our own is left").hasSize(1);
            assertThat(own.localPort().isSm()).isTrue();
        }
        // More runs than slots, one after the other: each frees its slot at exit.
        for (int i = 0; i < 12; i++) {
            Run r = run(null, "smpquery", "-D", "nodeinfo", "0");
            assertThat(r.exit()).as(r.toString()).isZero();
        }
    }

    @Test
    void aRealClientKilledWithoutDisconnectIsNoticedAndDetached() throws Exception {
        killedClientIsNoticed();
    }

    void killedClientIsNoticed() throws Exception {
        Optional<Path> sminfo = executable("sminfo");
        Assumptions.assumeTrue(sminfo.isPresent(), "sminfo not installed");
        Path work = Files.createDirectories(dir.resolve("killed"));
        ProcessBuilder pb = new ProcessBuilder(sminfo.get().toString(), "-t", "20000", "-D", "0")
                .directory(work.toFile()).redirectErrorStream(true).redirectOutput(work.resolve("out").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pointAtServer(pb.environment());
        pb.environment().put("SIM_HOST", "H-0002c90300000210");
        Process p = pb.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            // Its SMInfo query (which nobody answers) is in the twin: it is attached and waiting.
            while (fabric.sent.stream().noneMatch(s -> (s.mad()[17] & 0xff) == 0x20)) {
                assertThat(System.nanoTime()).as("sminfo sends its query").isLessThan(deadline);
                assertThat(p.isAlive()).as("sminfo still running").isTrue();
                Thread.sleep(10);
            }
            assertThat(server.clients()).hasSize(1);
        } finally {
            p.destroyForcibly();    // SIGKILL: no atexit, no DISCONNECT
            p.waitFor(10, TimeUnit.SECONDS);
        }
        assertThat(server.clients()).as("nothing said it left").hasSize(1);
        FakeFabric.Att ghost = fabric.attachments.getFirst();
        byte[] trap = new byte[256];
        trap[0] = 1;
        trap[1] = 1;
        trap[2] = 1;
        trap[3] = 5;
        for (int i = 0; i < 3 && !ghost.detached; i++) {
            fabric.push(ghost, trap, new MadAddress(1, 0, 0, 0, 0));
            fabric.settle();
            Thread.sleep(50);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!ghost.detached && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(ghost.detached).as("the first MAD for it found it gone").isTrue();
        assertThat(server.clients()).isEmpty();
        Run r = run(null, "smpquery", "-D", "nodeinfo", "0");
        assertThat(r.exit()).as(r.toString()).isZero();
    }

    @Test
    void ibstatShowsTheFakeSysfsOfTheAttachPort() throws Exception {
        Optional<Path> ibstat = executable("ibstat");
        Assumptions.assumeTrue(ibstat.isPresent(), "ibstat not installed");
        Run r = run("H-0002c90300000200", "ibstat");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("CA 'ibsim0'", "Node GUID: " + guid(FakeFabric.HOST1), "Base lid: 11",
                "SM lid: 1", "State: Active", "Port GUID: " + guid(FakeFabric.HOST1 + 1), "Rate: 40",
                "Capability mask: 0x02510868", "Link layer: IB");
    }

    // ---- ibsim's local mode ----

    @Test
    void inLocalModeRealToolsGetWhatTheyGetInRemoteMode() throws Exception {
        String[][] commands = {
            {null, "smpquery", "-D", "nodeinfo", "0"},
            {null, "smpquery", "-D", "nodeinfo", "0,1"},
            {"H-0002c90300000200", "smpquery", "-D", "nodeinfo", "0,1,2"},
            {"host2 HCA-1", "smpquery", "-D", "portinfo", "0"},
            {"H-0002c90300000210", "smpquery", "nodeinfo", "11"},
        };
        List<String> remote = new ArrayList<>();
        for (String[] c : commands) {
            Run r = run(c[0], java.util.Arrays.copyOfRange(c, 1, c.length));
            assertThat(r.exit()).as(r.toString()).isZero();
            remote.add(r.out());
        }
        goLocal();
        for (int i = 0; i < commands.length; i++) {
            String[] c = commands[i];
            Run r = run(c[0], java.util.Arrays.copyOfRange(c, 1, c.length));
            assertThat(r.exit()).as(r.toString()).isZero();
            assertThat(r.out()).as(r.command()).isEqualTo(remote.get(i));
        }
        assertThat(server.clients()).as("libumad2sim disconnects at exit").isEmpty();
        Run dead = run(null, "smpquery", "-D", "nodeinfo", "0,5");
        assertThat(dead.exit()).as(dead.toString()).isNotZero();
        assertThat(dead.millis()).as("bounced with status 110, not timed out").isLessThan(3000);
        Run unknown = run("no-such-node", "smpquery", "-D", "nodeinfo", "0");
        assertThat(unknown.exit()).as(unknown.toString()).isNotZero();
        // more runs than slots, one after the other: each frees its slot at exit
        for (int i = 0; i < 12; i++) {
            Run r = run(null, "smpquery", "-D", "nodeinfo", "0");
            assertThat(r.exit()).as(r.toString()).isZero();
        }
        assertThat(server.droppedDatagrams()).isZero();
    }

    @Test
    void inLocalModeAKilledClientIsNoticedAndDetached() throws Exception {
        goLocal();
        killedClientIsNoticed();
    }

    @Test
    void aLocalBasenameIsServedOnce() throws Exception {
        goLocal();
        try (IbsimServer second = new IbsimServer(fabric)) {
            assertThatThrownBy(() -> second.startLocal(localName)).isInstanceOf(java.net.BindException.class)
                    .hasMessageContaining("@" + localName + ":ctl is taken");
        }
        Run r = run(null, "smpquery", "-D", "nodeinfo", "0");
        assertThat(r.exit()).as("the first server is undisturbed\n" + r).isZero();
    }

    // ---- finding the tools ----

    static Optional<Path> executable(String name) {
        return Processes.executable(name);
    }

    static Optional<Path> umad2sim() {
        for (String root : new String[] {"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib",
            "/usr/lib64", "/usr/local/lib"}) {
            Path p = Path.of(root, "umad2sim", "libumad2sim.so");
            if (Files.isRegularFile(p)) {
                return Optional.of(p);
            }
        }
        try (Stream<Path> s = Files.find(Path.of("/usr/lib"), 4,
                (p, a) -> p.getFileName().toString().equals("libumad2sim.so"))) {
            return s.findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
