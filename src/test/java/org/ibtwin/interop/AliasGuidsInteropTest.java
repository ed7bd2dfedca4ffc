package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.format.TopologyReader;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.SaAttributes;
import org.ibtwin.mad.SaComponents;
import org.ibtwin.sim.Console;
import org.ibtwin.sim.IbsimServer;
import org.ibtwin.sim.Twin;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.transport.IbsimClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Alias GUIDs written into the ports: the same steps against real OpenSM and against ours, each SM on a fresh
 * simulator of the same four-CA fabric, and real {@code smpquery guidinfo} (by directed route from h2) shows each
 * step's GUIDInfo table of h3's port. h3 asks the SA for two alias GUIDs (one given, one the SA picks), deletes the
 * first, a heavy sweep follows, h3's cable is pulled and put back (a sweep each: the port leaves the subnet and
 * comes back), and h3 asks for a third. Each step's SA answer, the number of SubnSet(GUIDInfo) the SM sent for it
 * (OpenSM's from its log) and real smpquery's output must be the same from both SMs.
 *
 * <p>On real ibsim, which answers a GUIDInfo Set with status 0x08 (it has none), the port's table stays the port
 * GUID alone whatever the SM sends. On the twin (its own ibsim endpoint, ports that keep what SubnSet(GUIDInfo)
 * writes, up to GuidCap) the table shows what each SM wrote, and a pulled cable does not clear it (the HCA stays
 * powered), while both SMs forget the aliases of a port that left.
 */
@Tag("interop")
class AliasGuidsInteropTest {
    private static final int FIRST_PORT = 26900;
    private static final int LAST_PORT = 26960;
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(20);
    private static final Layout GIR = SaAttributes.GUID_INFO_RECORD;
    private static final int GIR_ID = AttributeIds.GUID_INFO_RECORD;
    private static final long GIVEN = 0x0002c90300001234L;
    private static final long THIRD = 0x0002c90300005678L;
    /** h3's port from h2: h2's port 1 to the switch, out of its port 3. */
    private static final String H3_PATH = "0,1,3";
    private static final String UNLINK = "Unlink \"H-h3\"";
    private static final String LINK = "Link \"sw1\"[3] \"H-h3\"[1]";

    private static RealTools tools;
    private static Path smpquery;
    private static Path saquery;

    @BeforeAll
    static void findTools() {
        tools = RealTools.findOrSkip();
        smpquery = RealTools.diagOrSkip("smpquery");
        saquery = RealTools.diagOrSkip("saquery");
    }

    /** A simulator that types console lines (ibsim's, or the twin's console). */
    private interface Sim extends AutoCloseable {
        int port();

        void console(String line) throws Exception;

        @Override
        void close();
    }

    /** An SM brought up and sweeping: its SubnSet(GUIDInfo) count and its heavy sweeps so far. */
    private interface Sm extends AutoCloseable {
        long guidInfoSets() throws IOException;

        long sweeps() throws IOException;

        void heavySweep() throws Exception;

        @Override
        void close();
    }

    private static Sim realIbsim(Path dir) throws Exception {
        RemoteIbsim ibsim = RemoteIbsim.fourCasWithConsole(tools.ibsim, dir, FIRST_PORT, LAST_PORT);
        return new Sim() {
            public int port() {
                return ibsim.port();
            }

            public void console(String line) throws Exception {
                ibsim.console(line);
            }

            public void close() {
                ibsim.close();
            }
        };
    }

    private static Sim twin(Path dir) throws Exception {
        Path net = dir.resolve("four.net");
        Files.writeString(net, RemoteIbsim.FOUR_CAS);
        Twin twin = Twin.of(TopologyReader.read(net));
        IbsimServer server = RemoteIbsim.serveTwin(twin, FIRST_PORT, LAST_PORT);
        StringWriter said = new StringWriter();
        Console console = new Console(twin, server, new PrintWriter(said, true));
        return new Sim() {
            public int port() {
                return server.port();
            }

            public void console(String line) {
                assertThat(console.execute(line)).as(line + ": " + said).isTrue();
            }

            public void close() {
                server.close();
            }
        };
    }

    private static Sm opensm(Sim sim, Path dir) throws Exception {
        Path log = dir.resolve("opensm.log");
        Files.writeString(dir.resolve("partitions.conf"), "Default=0x7fff : ALL=full ;\n");
        // the log read as it grows: flushed at every line
        Files.writeString(dir.resolve("opensm.conf"), "force_log_flush TRUE\n");
        UmadClient c = new UmadClient(tools.umad2sim, sim.port(), dir, "H-h1", TOOL_TIMEOUT);
        // -D 0x0b: errors, info (SUBNET UP) and debug (each "Setting GUIDInfo" request)
        Process osm = c.start(tools.opensm, dir.resolve("opensm.out"), "-F", dir.resolve("opensm.conf").toString(),
                "-s", "0", "-f", log.toString(), "-D", "0x0b", "-P", dir.resolve("partitions.conf").toString());
        Sm sm = new Sm() {
            public long guidInfoSets() throws IOException {
                return count(log, "Setting GUIDInfo (0x14)");
            }

            public long sweeps() throws IOException {
                return count(log, "SUBNET UP");
            }

            public void heavySweep() throws Exception {
                // OpenSM sweeps heavy on SIGHUP (and rereads its files)
                Process k = new ProcessBuilder("kill", "-HUP", Long.toString(osm.pid())).start();
                assertThat(k.waitFor()).isZero();
            }

            public void close() {
                RealTools.stop(osm);
            }
        };
        awaitSa(sim, dir, () -> osm.isAlive() ? null : "OpenSM exited:\n" + RealTools.tail(RealTools.read(log)));
        return sm;
    }

    private static Sm ours(Sim sim, Path dir) throws Exception {
        IbsimClient smPort = IbsimClient.connect(RemoteIbsim.HOST, sim.port(), "H-h1", true);
        SubnetManager sm = new SubnetManager(smPort, SmConfig.defaults().withSweepInterval(Duration.ZERO), null);
        AtomicBoolean stop = new AtomicBoolean();
        Thread sweeper = new Thread(() -> sm.run(stop), "alias-sm");
        sweeper.start();
        Sm s = new Sm() {
            public long guidInfoSets() {
                return sm.setsSent(AttributeIds.GUID_INFO);
            }

            public long sweeps() {
                return sm.sweeps();
            }

            public void heavySweep() {
                sm.requestSweep();
            }

            public void close() {
                stop.set(true);
                try {
                    sweeper.join(10_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    sm.detach();
                    smPort.close();
                }
            }
        };
        awaitSa(sim, dir, () -> sweeper.isAlive() ? null : "our SM stopped");
        return s;
    }

    private static void awaitSa(Sim sim, Path dir, java.util.function.Supplier<String> dead) throws Exception {
        UmadClient c = new UmadClient(tools.umad2sim, sim.port(), dir, "H-h2", TOOL_TIMEOUT);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (c.run(saquery, "SMIR").exit() != 0) {
            String why = dead.get();
            if (why != null || System.nanoTime() > deadline) {
                fail("the SA did not answer: " + (why == null ? "timeout" : why));
            }
            Thread.sleep(100);
        }
    }

    private static long count(Path log, String what) throws IOException {
        return Files.exists(log) ? RealTools.read(log).split(java.util.regex.Pattern.quote(what), -1).length - 1 : 0;
    }

    /**
     * Waits until the SM has settled: at least {@code sweeps} heavy sweeps done and neither its sweeps nor its
     * GUIDInfo Sets changing for a second.
     */
    private static void settle(Sm sm, long sweeps) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long stableSince = System.nanoTime();
        long[] last = {sm.sweeps(), sm.guidInfoSets()};
        while (true) {
            Thread.sleep(100);
            long[] now = {sm.sweeps(), sm.guidInfoSets()};
            if (!Arrays.equals(now, last)) {
                last = now;
                stableSince = System.nanoTime();
            } else if (now[0] >= sweeps && System.nanoTime() - stableSince > TimeUnit.SECONDS.toNanos(1)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                fail("the SM did not settle: " + now[0] + " sweeps of " + sweeps + " wanted");
            }
        }
    }

    private static byte[] record(int lid, long... guids) {
        byte[] r = new byte[GIR.size()];
        GIR.set(r, 0, "Lid", lid);
        for (int i = 0; i < guids.length; i++) {
            GIR.set(r, 0, "Guid" + (i + 1), guids[i]);
        }
        return r;
    }

    private static long mask(int... indexes) {
        long m = SaComponents.bit(GIR_ID, "Lid") | SaComponents.bit(GIR_ID, "BlockNum");
        for (int i : indexes) {
            m |= SaComponents.bit(GIR_ID, "Guid" + i);
        }
        return m;
    }

    /** Everything one SM's run showed, a string per step. */
    private static List<String> scenario(Sim sim, Sm sm, Path dir) throws Exception {
        List<String> seen = new ArrayList<>();
        UmadClient c = new UmadClient(tools.umad2sim, sim.port(), dir, "H-h2", TOOL_TIMEOUT);
        settle(sm, 1);
        seen.add(step("before", sm, 0, c, null));
        try (IbsimClient h3 = IbsimClient.connect(RemoteIbsim.HOST, sim.port(), "H-h3", false)) {
            int lid = h3.localPort().lid();
            int smLid = h3.localPort().smLid();
            MadQuery q = new MadQuery(h3);
            long sets = sm.guidInfoSets();
            MadQuery.SaResult r = q.saQuery(smLid, Methods.SET, GIR_ID, 0, mask(1, 2), 0, record(lid, GIVEN, 0));
            settle(sm, sm.sweeps());
            seen.add(step("assign two alias GUIDs", sm, sets, c, r));

            sets = sm.guidInfoSets();
            r = q.saQuery(smLid, Methods.DELETE, GIR_ID, 0, mask(1), 0, record(lid, GIVEN));
            settle(sm, sm.sweeps());
            seen.add(step("delete the given one", sm, sets, c, r));

            sets = sm.guidInfoSets();
            long sweeps = sm.sweeps();
            sm.heavySweep();
            settle(sm, sweeps + 1);
            seen.add(step("a heavy sweep", sm, sets, c, null));
        }

        // the cable pulled: the port leaves the subnet at the next sweep; put back: it comes back at the next
        long sets = sm.guidInfoSets();
        long sweeps = sm.sweeps();
        sim.console(UNLINK);
        sm.heavySweep();
        settle(sm, sweeps + 1);
        sweeps = sm.sweeps();
        sim.console(LINK);
        sm.heavySweep();
        settle(sm, sweeps + 1);
        String gir;
        try (IbsimClient h3 = IbsimClient.connect(RemoteIbsim.HOST, sim.port(), "H-h3", false)) {
            int lid = h3.localPort().lid();
            UmadClient.Result g = c.run(saquery, "GIR", lid + "/0");
            // the first record alone: through the twin's endpoint OpenSM's one-record answer (not RMPP) reaches
            // saquery as 256 bytes, and libumad2sim's garbled tail makes a second record
            String out = g.out();
            int second = out.indexOf("GUIDInfo Record dump:", 1);
            gir = "saquery GIR <h3>/0 exit " + g.exit() + "\n" + (second < 0 ? out : out.substring(0, second))
                    .replace("LID........................" + lid + "\n", "LID........................<h3>\n") + g.err();
            seen.add(step("h3's cable out and back", sm, sets, c, null) + gir);

            sets = sm.guidInfoSets();
            MadQuery q = new MadQuery(h3);
            MadQuery.SaResult r = q.saQuery(h3.localPort().smLid(), Methods.SET, GIR_ID, 0, mask(3), 0,
                    record(lid, 0, 0, THIRD));
            settle(sm, sm.sweeps());
            seen.add(step("assign a third", sm, sets, c, r));
        }
        return seen;
    }

    private static String step(String what, Sm sm, long setsBefore, UmadClient c, MadQuery.SaResult r)
            throws Exception {
        UmadClient.Result g = c.run(smpquery, "-D", "guidinfo", H3_PATH);
        return "## " + what + "\n" + (r == null ? "" : "SA: status 0x" + Integer.toHexString(r.status()) + " "
                + HexFormat.of().formatHex(Arrays.copyOf(r.data(), Math.min(72, r.data().length))) + "\n")
                + "GUIDInfo SubnSets: " + (sm.guidInfoSets() - setsBefore) + "\n"
                + "smpquery -D guidinfo " + H3_PATH + " exit " + g.exit() + "\n" + g.out() + g.err();
    }

    private static List<String> run(Path dir, boolean twin, boolean opensm) throws Exception {
        Path d = Files.createDirectories(dir.resolve((twin ? "twin-" : "ibsim-") + (opensm ? "opensm" : "ours")));
        try (Sim sim = twin ? twin(d) : realIbsim(d); Sm sm = opensm ? opensm(sim, d) : ours(sim, d)) {
            return scenario(sim, sm, d);
        }
    }

    private static String block0(List<String> steps, int step) {
        String s = steps.get(step);
        int at = s.indexOf("\n   0: ");
        return s.substring(at + 1, s.indexOf('\n', at + 1));
    }

    @Test
    void onRealIbsimBothSmsSendTheSetsAndThePortKeepsItsGuidAlone(@TempDir Path dir) throws Exception {
        List<String> opensm = run(dir, false, true);
        List<String> ours = run(dir, false, false);
        assertThat(opensm.get(1)).as("OpenSM writes the block its SA changed").contains("GUIDInfo SubnSets: 1");
        assertThat(block0(opensm, 1)).as("ibsim refuses the Set").isEqualTo(
                "   0: 0x0000000000100005 0x0000000000000000");
        for (int i = 0; i < opensm.size(); i++) {
            assertThat(ours.get(i)).as("step " + i).isEqualTo(opensm.get(i));
        }
        assertThat(ours).hasSameSizeAs(opensm);
    }

    @Test
    void onTheTwinThePortsTableShowsWhatEachSmWrote(@TempDir Path dir) throws Exception {
        List<String> opensm = run(dir, true, true);
        List<String> ours = run(dir, true, false);
        String guid0 = "   0: 0x[0-9a-f]{16} ";
        assertThat(block0(opensm, 0)).matches(guid0 + "0x0{16}");
        assertThat(opensm.get(1)).contains("   2: 0x0014050000000001 0x0000000000000000");
        assertThat(block0(opensm, 1)).matches(guid0 + "0x0002c90300001234");
        assertThat(block0(opensm, 2)).as("deleted").matches(guid0 + "0x0{16}");
        assertThat(opensm.get(4)).as("the pulled cable left the port's table").contains(
                "   2: 0x0014050000000001 0x0000000000000000");
        assertThat(opensm.get(5)).as("the block as the SA has it now, over what the port kept").contains(
                "   2: 0x0000000000000000 0x0002c90300005678");
        for (int i = 0; i < opensm.size(); i++) {
            assertThat(ours.get(i)).as("step " + i).isEqualTo(opensm.get(i));
        }
        assertThat(ours).hasSameSizeAs(opensm);
    }
}
