package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.ibtwin.fixture.TestResources;
import org.ibtwin.format.FormatException;
import org.ibtwin.format.OpensmConf;
import org.ibtwin.sm.SmConfig;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code -F opensm.conf}: a file written by real {@code opensm -c} loads, with every option ibtwin implements
 * honoured (changed from the defaults here) and every other option named once; the command line beats the file;
 * {@code ibtwin sm -c} writes a file that reads back to the defaults; bad lines are file:line errors.
 */
@Tag("interop")
class OpensmConfTest {
    /** Real opensm -c's file (skipped without opensm, except under CI). */
    private static String realDefaultFile(Path dir) throws Exception {
        Path exe = null;
        for (String d : new String[] {"/usr/sbin", "/sbin", "/usr/local/sbin", "/usr/bin"}) {
            if (Files.isExecutable(Path.of(d, "opensm"))) {
                exe = Path.of(d, "opensm");
                break;
            }
        }
        if (exe == null) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail("CI=true but opensm not found (scripts/setup installs it)");
            }
            Assumptions.assumeTrue(false, "opensm not found");
        }
        Path conf = dir.resolve("opensm.conf");
        Process p = new ProcessBuilder(exe.toString(), "-c", conf.toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("opensm.out").toFile()).start();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("opensm -c did not finish");
        }
        assertThat(p.exitValue()).isZero();
        return Files.readString(conf);
    }

    private static String set(String text, String name, String value) {
        String out = text.replaceFirst("(?m)^" + name + " .*$", name + " " + java.util.regex.Matcher
                .quoteReplacement(value));
        assertThat(out).as(name + " in opensm -c's file").isNotEqualTo(text);
        return out;
    }

    /** Parses {@code ibtwin sm args} and returns the SmConfig its options make; warnings into {@code err}. */
    private static SmConfig config(SmCommand cmd, StringWriter err, String... args) {
        new CommandLine(cmd).parseArgs(args);
        return cmd.sm.config(Duration.ofSeconds(cmd.sweepSeconds), cmd.priority, new PrintWriter(err, true),
                "ibtwin sm");
    }

    @Test
    void aFileFromRealOpensmLoadsWithEveryImplementedOptionHonouredAndTheRestNamedOnce(@TempDir Path dir)
            throws Exception {
        String text = realDefaultFile(dir);
        Path parts = dir.resolve("parts.conf");
        Files.writeString(parts, "Default=0x7fff, ipoib : ALL=full ;\nblue=0x0010 : ALL=limited ;\n");
        Path roots = dir.resolve("roots.txt");
        Files.writeString(roots, "0xec0d9a0300ec8480\n");
        Path policy = dir.resolve("qos-policy.conf");
        Files.writeString(policy, "qos-ulps\n  default : 5\n  sdp : 2\nend-qos-ulps\nqos-setup\nend-qos-setup\n");
        for (String line : TestResources.text("/cli/opensm-changes.conf").split("\n")) {
            if (!line.startsWith("#")) {
                String[] option = line.split(" ", 2);
                text = set(text, option[0], option[1].replace("@parts.conf@", parts.toString())
                        .replace("@roots.txt@", roots.toString()).replace("@qos-policy.conf@", policy.toString()));
            }
        }
        Path file = dir.resolve("changed.conf");
        Files.writeString(file, text + "no_such_option 1\n");
        assertThat(OpensmConf.read(file).entries()).hasSizeGreaterThan(150);

        StringWriter err = new StringWriter();
        SmCommand cmd = new SmCommand();
        SmConfig c = config(cmd, err, "-F", file.toString());
        assertThat(c.lmc()).isEqualTo(2);
        assertThat(c.maxOpVls()).isEqualTo(3);
        assertThat(c.subnetTimeout()).isEqualTo(20);
        assertThat(c.sweepInterval()).isEqualTo(Duration.ofSeconds(25));
        assertThat(c.reassignLids()).isTrue();
        assertThat(c.routingEngines()).isEqualTo("updn,minhop");
        assertThat(c.rootGuids()).containsExactly(0xec0d9a0300ec8480L);
        assertThat(c.priority()).isEqualTo(7);
        assertThat(c.maxSmps()).isEqualTo(8);
        assertThat(c.timeout()).isEqualTo(Duration.ofMillis(300));
        assertThat(c.retries()).isEqualTo(5);
        assertThat(cmd.sm.saKey()).isEqualTo(0xab);
        assertThat(cmd.sm.number("sminfo_polling_timeout", "--sminfo_polling_timeout", 1, 1 << 30, 10000))
                .isEqualTo(4000);
        assertThat(cmd.sm.number("sm_key", "--sm_key", 0, -1, 1)).isEqualTo(1);
        assertThat(cmd.sm.partitions().partitions()).hasSize(2);
        assertThat(cmd.sm.mkeys()).isEqualTo(new org.ibtwin.sm.MKeys(0x98039b0300c0ffeeL, 2, 60));
        org.ibtwin.sm.QosConfig q = cmd.sm.qos(new PrintWriter(err, true), "ibtwin sm");
        assertThat(q).isNotNull();
        assertThat(q.tables(org.ibtwin.sm.QosConfig.PortClass.SWITCH_EXTERNAL).high()).startsWith(1, 8, 2, 16, 0);
        assertThat(q.tables(org.ibtwin.sm.QosConfig.PortClass.CA).high()).startsWith(0, 4, 1, 0);
        assertThat(cmd.sm.perfmgrOptions(new PrintWriter(err, true), "ibtwin sm")).isNull();   // perfmgr FALSE
        cmd.sm.perfmgr = true;
        assertThat(cmd.sm.perfmgrOptions(new PrintWriter(err, true), "ibtwin sm").sweep())
                .isEqualTo(Duration.ofSeconds(30));

        // the rest: no_clients_rereg changed (a warning at its line), an unknown name (a warning), the others in one
        // note
        String e = err.toString();
        int line = List.of(text.split("\n", -1)).indexOf("no_clients_rereg TRUE") + 1;
        assertThat(e).contains("ibtwin sm: warning: " + file + ":" + line + ": no_clients_rereg TRUE: not supported "
                + "by ibtwin; ignored\n");
        assertThat(e).contains(": unknown option no_such_option; ignored\n");
        for (OpensmConf.Entry x : OpensmConf.parse(text, "x").entries()) {
            int named = e.split("\\b" + x.name() + "\\b", -1).length - 1;
            assertThat(named).as(x.name()).isEqualTo(SmOptions.IMPLEMENTED.contains(x.name()) ? 0 : 1);
        }
        assertThat(e.lines().count()).isEqualTo(3);
        // qos_policy_file, with QoS on: the policy's SLs, its warnings one line each
        StringWriter perr = new StringWriter();
        org.ibtwin.sm.sa.QosPolicy policyRead = cmd.sm.qosPolicy(new PrintWriter(perr, true), "ibtwin sm", null);
        assertThat(policyRead.sl(1, 2, null, null)).isEqualTo(5);
        assertThat(policyRead.sl(1, 2, 0x10001L, null)).isEqualTo(2);
        assertThat(perr.toString()).isEqualTo("ibtwin sm: warning: " + policy + ":5: qos-setup is ignored, as by "
                + "OpenSM (the SL2VL and VL arbitration tables come from opensm.conf's qos_* options)\n");

        // the command line beats the file
        cmd = new SmCommand();
        c = config(cmd, new StringWriter(), "-F", file.toString(), "-l", "1", "-R", "minhop", "-s", "3", "-p",
                "2");
        assertThat(c.lmc()).isEqualTo(1);
        assertThat(c.routingEngines()).isEqualTo("minhop");
        assertThat(c.sweepInterval()).isEqualTo(Duration.ofSeconds(3));
        assertThat(c.priority()).isEqualTo(2);
        assertThat(c.maxSmps()).isEqualTo(8);
        cmd = new SmCommand();
        config(cmd, new StringWriter(), "-F", file.toString(), "--m_key", "0xec0d9a0300ec8480",
                "--m_key_protection_level", "1");
        assertThat(cmd.sm.mkeys()).isEqualTo(new org.ibtwin.sm.MKeys(0xec0d9a0300ec8480L, 1, 60));

        // the unchanged file from opensm -c gives OpenSM's defaults, which are ibtwin's
        Path plain = dir.resolve("opensm.conf");
        cmd = new SmCommand();
        err = new StringWriter();
        c = config(cmd, err, "-F", plain.toString());
        SmConfig d = SmConfig.defaults();
        assertThat(List.of(c.lmc(), c.maxOpVls(), c.subnetTimeout(), c.priority(), c.maxSmps(), c.retries()))
                .isEqualTo(List.of(d.lmc(), d.maxOpVls(), d.subnetTimeout(), d.priority(), d.maxSmps(), d.retries()));
        assertThat(c.timeout()).isEqualTo(d.timeout());
        assertThat(c.sweepInterval()).isEqualTo(d.sweepInterval());
        assertThat(cmd.sm.mkeys()).isEqualTo(org.ibtwin.sm.MKeys.none());
        assertThat(c.routingEngines()).isEqualTo("minhop");
        assertThat(err.toString().lines().count()).as(err.toString()).isEqualTo(1);
    }

    @Test
    void smDashCWritesTheDefaultsAndBadLinesAreFileLineErrors(@TempDir Path dir) throws Exception {
        Path ours = dir.resolve("ibtwin.conf");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        assertThat(cl.execute("sm", "-c", ours.toString())).isZero();
        assertThat(out.toString()).isEqualTo("Created config file template '" + ours + "'.\n");
        OpensmConf written = OpensmConf.read(ours);
        assertThat(written.entries()).extracting(OpensmConf.Entry::name).containsExactlyElementsOf(SmOptions.IMPLEMENTED);
        for (OpensmConf.Entry x : written.entries()) {
            assertThat(x.value()).as(x.name()).isEqualToIgnoringCase(OpensmConf.opensmDefault(x.name()));
        }
        StringWriter w = new StringWriter();
        SmConfig c = config(new SmCommand(), w, "-F", ours.toString());
        assertThat(c).isEqualTo(SmConfig.defaults());
        assertThat(w.toString()).isEmpty();

        Path bad = dir.resolve("bad.conf");
        Files.writeString(bad, "# a comment\n\nlmc 9\n");
        assertThat(cl.execute("up", "--once", "-F", bad.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin up: " + bad + ":3: lmc: 9 is out of range (0..7)\n");
        Files.writeString(bad, "sweep_interval\n");
        try {
            OpensmConf.read(bad);
            fail("no error");
        } catch (FormatException e) {
            assertThat(e.getMessage()).startsWith(bad + ":1: option sweep_interval has no value");
        }
        err.getBuffer().setLength(0);
        assertThat(cl.execute("sm", "-c", dir.resolve("no/such/dir.conf").toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin sm: -c " + dir.resolve("no/such/dir.conf")
                + ": cannot write: no such directory\n");
    }
}
