package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.ibtwin.interop.IbtwinUp.await;
import static org.ibtwin.interop.IbtwinUp.say;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PerfMgr of a real {@code ibtwin up --perfmgr} process (UDP ports 25100..25160), its console raising counters
 * and real perfquery resetting them: the 64-bit totals survive a {@code perfquery -R}, which the PerfMgr notices
 * (OpenSM's ERR 540A); each rise of an error counter is one ERR 5431 line, once; a counter past three quarters of
 * its range is cleared by the PerfMgr with its count kept; a bad perfmgr option in opensm.conf is one warning line.
 */
@Tag("interop")
class PerfMgrInteropTest {
    private static final Pattern SWEEPS = Pattern.compile("sweeps {18}: (\\d+)");
    @Test
    void totalsSurviveARealResetAndEachRiseIsOneLine(@TempDir Path dir) throws Exception {
        Path conf = dir.resolve("opensm.conf");
        Files.writeString(conf, "perfmgr TRUE\nperfmgr_max_outstanding_queries 0\n");
        IbtwinUp up = IbtwinUp.start(dir, 25100, 25160, "three.net", RemoteIbsim.THREE_CAS, "--sm-node", "H-h1", "-F", conf.toString(),
                "--perfmgr_sweep_time_s", "1", "-s", "0");
        Path out = up.out();
        Path err = up.err();
        int port = up.port();
        Process p = up.process();
        try (OutputStream console = p.getOutputStream()) {
            assertThat(RealTools.read(err)).contains("ibtwin up: warning: " + conf + ":2: "
                    + "perfmgr_max_outstanding_queries: 0 is out of range (1..65535); using the default, 500");
            int lid = RemoteIbsim.lid(port, "H-h3");
            UmadClient c = up.client("H-h2");
            Path perfquery = RealTools.executable("perfquery").orElseThrow();
            String rise5 = "ibtwin up: warning: ERR 5431: SymbolErrorCounter : 5 : node \"H-h3\" (NodeGUID: 0x";
            // the first reading of a port is the PerfMgr's starting point (no rise before it): wait for it
            await("a first reading of H-h3 port 1", p, out, () -> {
                try {
                    return sweeps(console, p, out) > 0 && printCounters(console, p, out).contains("symbol_err_cnt");
                } catch (Exception x) {
                    throw new IllegalStateException(x);
                }
            });
            say(console, "PerformanceSet \"H-h3\"[1] PortCounters.SymbolErrorCounter=5");
            await("the rise of 5", p, err, () -> RealTools.read(err).contains(rise5));
            assertThat(RealTools.read(err)).containsPattern(Pattern.quote(rise5) + "[0-9a-f]+\\) : port 1 connected "
                    + "to \"sw1\" \\(NodeGUID: 0x[0-9a-f]+\\) : port 3\n");

            // real perfquery -R: the counter goes back to 0; the PerfMgr notices, the total stays
            assertThat(c.run(perfquery, "-R", Integer.toString(lid), "1").exit()).isZero();
            await("the out of band clear", p, err, () -> RealTools.read(err).contains("PerfMgr: ERR 540A: Detected an "
                    + "out of band error clear on H-h3 (0x"));
            say(console, "PerformanceSet \"H-h3\"[1] PortCounters.SymbolErrorCounter=2");
            await("the rise of 2", p, err, () -> RealTools.read(err).contains("ERR 5431: SymbolErrorCounter : 2 : "));
            long s = sweeps(console, p, out);
            await("two more PerfMgr sweeps", p, out, () -> sweeps(console, p, out) >= s + 2);
            String e = RealTools.read(err);
            assertThat(count(e, "ERR 5431: SymbolErrorCounter : 5 :")).isEqualTo(1);
            assertThat(count(e, "ERR 5431: SymbolErrorCounter : 2 :")).isEqualTo(1);
            assertThat(count(e, "ERR 540A")).isEqualTo(1);
            assertThat(printCounters(console, p, out)).contains("\"H-h3\" 0x", " active TRUE port 1\n",
                    "     symbol_err_cnt       : 7\n");

            // near its limit (49,152 of 65,535): the PerfMgr clears it itself, keeps the count, no out of band line
            say(console, "PerformanceSet \"H-h3\"[1] PortCounters.SymbolErrorCounter=50002");
            await("the rise of 50000", p, err, () -> RealTools.read(err).contains("ERR 5431: SymbolErrorCounter : "
                    + "50000 : "));
            await("the PerfMgr's clear", p, err, () -> perfqueryLine(c, perfquery, lid)
                    .equals("SymbolErrorCounter:..............0"));
            long s2 = sweeps(console, p, out);
            await("two more PerfMgr sweeps", p, out, () -> sweeps(console, p, out) >= s2 + 2);
            assertThat(printCounters(console, p, out)).contains("     symbol_err_cnt       : 50007\n");
            assertThat(count(RealTools.read(err), "ERR 540A")).isEqualTo(1);
        } finally {
            up.close();
        }
    }

    private static String perfqueryLine(UmadClient c, Path perfquery, int lid) {
        try {
            for (String l : c.run(perfquery, Integer.toString(lid), "1").out().split("\n")) {
                if (l.startsWith("SymbolErrorCounter:")) {
                    return l;
                }
            }
            return "";
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String printCounters(OutputStream console, Process p, Path out) throws Exception {
        int from = RealTools.read(out).length();
        say(console, "perfmgr print_counters H-h3 1");
        await("print_counters", p, out, () -> {
            String s = RealTools.read(out).substring(from);
            return s.contains("multicast_rcv_pkts") || s.contains("Node H-h3 not found...");
        });
        return RealTools.read(out).substring(from);
    }

    private static long sweeps(OutputStream console, Process p, Path out) {
        try {
            int from = RealTools.read(out).length();
            say(console, "perfmgr");
            await("perfmgr status", p, out, () -> SWEEPS.matcher(RealTools.read(out).substring(from)).find());
            Matcher m = SWEEPS.matcher(RealTools.read(out).substring(from));
            m.find();
            return Long.parseLong(m.group(1));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
