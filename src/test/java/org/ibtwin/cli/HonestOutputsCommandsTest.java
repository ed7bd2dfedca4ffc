package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.sm.SmDumps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a command promises is what it does: help texts, options, generated fabrics. */
class HonestOutputsCommandsTest extends CliTest {
    /** ibportstate's --json, which its help promises, is an option and prints the PortInfo after the operation. */
    @Test
    void ibportstateJsonIsTheOptionItsHelpPromises() throws Exception {
        assertThat(run("ibportstate", "--help")).isZero();
        assertThat(out.toString()).contains("      --json               Print the port's PortInfo after the operation "
                + "as JSON.\n");
        assertThat(run("ibportstate", "3", "1", "--json")).isZero();
        JsonNode j = new ObjectMapper().readTree(out.toString());
        assertThat(j.get("destination").asText()).isEqualTo("Lid 3");
        assertThat(j.get("operation").asText()).isEqualTo("query");
        assertThat(j.at("/portInfo/LinkState").asInt()).isEqualTo(4);
        assertThat(j.at("/portInfo/LinkWidthActive").asInt()).isEqualTo(2);   // 4x
        assertThat(j.at("/portInfo/Mkey").isMissingNode()).isTrue();          // only with -K
        assertThat(run("ibportstate", "3", "1", "disable", "--json")).isZero();
        j = new ObjectMapper().readTree(out.toString());
        assertThat(j.get("operation").asText()).isEqualTo("disable");
        assertThat(j.at("/portInfo/PhysLinkState").asInt()).isEqualTo(3);     // Disabled, after the operation
    }

    /** sm --help and up --help name the files the dumps are written to. */
    @Test
    void dumpDirHelpNamesTheFilesWritten() {
        assertThat(SmDumps.LFTS).isEqualTo("opensm-lfts.dump");
        assertThat(SmDumps.BALANCE).isEqualTo("ibtwin-routing-balance.txt");
        for (String cmd : new String[] {"sm", "up"}) {
            assertThat(run(cmd, "--help")).isZero();
            assertThat(out.toString().replaceAll("\\s+", " ")).contains("opensm-subnet.lst, opensm-lfts.dump, "
                    + "ibtwin-routing-balance.txt.").doesNotContain(".dmp").doesNotContain("ibtwin-balance.txt");
        }
    }

    /** An 80-port Quantum runs its ports split, 2x HDR (HDR100), as the real one does; 40 ports stay 4x. */
    @Test
    void eightyPortHdrSwitchesRunHdr100() throws Exception {
        assertThat(run("gen", "fat-tree", "--radix", "80", "--speed", "HDR", "--hosts", "160", "-o",
                dir.resolve("q80").toString())).isZero();
        assertThat(out.toString()).isEqualTo("fat-tree: 2 levels, radix 80, 1:1, HDR, 2x (split switch ports): 160 "
                + "hosts, 6 switches, 320 links (4 leaves, 2 spines) -> " + dir.resolve("q80") + "\n");
        Fabric f = FabricFiles.load(dir.resolve("q80.topo").toString());
        for (Link l : f.links()) {
            assertThat(l.activeWidth()).as(l.toString()).isEqualTo(LinkWidth.X2);
            assertThat(l.activeSpeed()).isEqualTo(LinkSpeed.HDR);
        }
        assertThat(Files.readString(dir.resolve("q80.topo"))).contains("\t# \"node001 mlx5_0\" lid 0 2xHDR\n");
        // read back, the split Quantum is not a degraded 4x one
        assertThat(run("topo", dir.resolve("q80.topo").toString())).isZero();
        assertThat(out.toString()).contains("  2xHDR       320   100 Gb/s\n",
                "Links trained below what both ends support: none\n");
        assertThat(run("gen", "single-switch", "--radix", "40", "--hosts", "2", "-o",
                dir.resolve("q40").toString())).isZero();
        assertThat(out.toString()).isEqualTo("single-switch, HDR: 2 hosts, 1 switches, 2 links -> "
                + dir.resolve("q40") + "\n");
    }

    /** doctor reads IBSIM_SERVER_NAME/PORT as every diag tool does; a file given still wins over them. */
    @Test
    void doctorReadsTheIbsimEnvironmentLikeTheTools() throws Exception {
        org.ibtwin.sim.Twin twin = org.ibtwin.sim.Twin.of(FabricFiles.load((String) null));
        try (org.ibtwin.sim.IbsimServer server = new org.ibtwin.sim.IbsimServer(node -> twin.attach(node, 0))) {
            server.start(java.net.InetAddress.getLoopbackAddress(), 18185);
            picocli.CommandLine cl = Main.commandLine();
            cl.setOut(new java.io.PrintWriter(out, true));
            cl.setErr(new java.io.PrintWriter(err, true));
            DoctorCommand d = cl.getSubcommands().get("doctor").getCommand();
            d.transport.env = java.util.Map.of("IBSIM_SERVER_NAME", "127.0.0.1", "IBSIM_SERVER_PORT", "18185");
            cl.execute("doctor");
            assertThat(out.toString()).startsWith("ibtwin doctor: ibsim at 127.0.0.1:18185 (65 nodes (5 switches, "
                    + "60 CAs), 120 links)\n");
            assertThat(err.toString()).startsWith("ibtwin doctor: discovered 65 nodes, 120 links\n");
        }
    }

    /** The notice a run on the built-in fabric gives, first on stderr. */
    private static final String NOTICE = "ibtwin: no HCA here: querying the simulated fabric default (built-in)";

    /** Runs with no IBSIM_* environment, whatever the machine running the tests has set. */
    private int runWithoutEnvironment(String... args) {
        DiagCommand.opener = o -> {
            o.env = java.util.Map.of();
            return o.open();
        };
        PerfFabric.opener = o -> {
            o.env = java.util.Map.of();
            return o.open(false);
        };
        try {
            return run(args);
        } finally {
            DiagCommand.opener = TransportOptions::open;
            PerfFabric.opener = o -> o.open(false);
        }
    }

    /**
     * With no transport named, every command family answers from the built-in simulated fabric and says so: its
     * first stderr line, exactly, and once per run (ibstat node017 attaches twice); stdout stays what the real tool
     * prints. The diag tools, the host tools, the perftest tools, ipoib, perf, doctor and snapshot save (nccl:
     * {@code NcclCommandTest}, on a GPU fabric).
     */
    @ParameterizedTest
    @ValueSource(strings = {"sminfo", "smpquery nd 1", "perfquery 1 1", "saquery -s", "ibaddr", "ibportstate 1 1",
        "ibroute 1", "ibtracert 1 2", "ibnetdiscover -S", "iblinkinfo", "ibhosts", "ibswitches", "ibnodes",
        "ibqueryerrors", "dump_lfts", "dump_mfts", "check_lft_balance", "ibidsverify",
        "ibstat node017", "ibstatus", "ibv_devinfo",
        "ib_write_bw node001 node002", "ib_read_bw node001 node002", "ib_send_lat node001 node002",
        "ib_atomic_lat node001 node002", "ipoib node001 node002", "perf all-to-all --pairs 2", "doctor"})
    void everyCommandFamilySaysItAnswersFromTheSimulatedFabric(String command) {
        int rc = runWithoutEnvironment(command.split(" "));
        assertThat(rc).as(command).isIn(0, 1);   // doctor: 1 for the default fabric's findings
        assertThat(err.toString()).as(command).startsWith(NOTICE + "\n");
        assertThat(err.toString().lines().filter(l -> l.contains("simulated")).count()).as(command).isOne();
        assertThat(out.toString()).as(command).doesNotContain("simulated fabric");
    }

    /** sminfo's stdout is the real tool's line; snapshot save and a --fabric file name theirs. */
    @Test
    void answersFromTheSimulatedFabricSaySoOnStderr() throws Exception {
        assertThat(runWithoutEnvironment("sminfo")).isZero();
        assertThat(out.toString()).isEqualTo("sminfo: sm lid 6 sm guid 0x2c90300000003, activity count 1 "
                + "priority 0 state 3 SMINFO_MASTER\n");
        assertThat(err.toString()).isEqualTo(NOTICE + "\n");
        assertThat(runWithoutEnvironment("ibstat", "node017")).isZero();
        assertThat(out.toString()).startsWith("CA 'mlx5_0'\n");
        assertThat(err.toString()).isEqualTo(NOTICE + "\n");
        Path snap = dir.resolve("s.json");
        assertThat(runWithoutEnvironment("snapshot", "save", "-o", snap.toString())).isZero();
        assertThat(err.toString()).startsWith(NOTICE + "\n");
        Path pair = dir.resolve("pair.topo");
        org.ibtwin.format.TopologyWriter.write(org.ibtwin.gen.Shapes.singleSwitch(2, 8, LinkSpeed.HDR), pair);
        String named = "ibtwin: querying the simulated fabric " + pair + " (an in-process twin, not a real fabric)\n";
        for (String cmd : new String[] {"ibstat", "ibnetdiscover", "ib_write_bw node001 node002",
            "ipoib node001 node002", "perf all-to-all"}) {
            String[] args = (cmd + " --fabric " + pair).split(" ");
            assertThat(runWithoutEnvironment(args)).as(cmd).isZero();
            assertThat(err.toString()).as(cmd).isEqualTo(named);
        }
        // a usage error is found before any fabric is attached, a host the fabric lacks before the notice: one line
        assertThat(runWithoutEnvironment("ib_write_bw", "node001", "node999")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin ib_write_bw: unknown host \"node999\" (hosts are named like "
                + "node001)\n");
        assertThat(runWithoutEnvironment("ib_write_bw", "node001", "node002", "-q", "0")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin ib_write_bw: -q must be 1..16384, got 0\n");
        assertThat(runWithoutEnvironment("ipoib", "node001", "node002", "--numa", "x")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin ipoib: --numa must be near or far, got 'x'\n");
        assertThat(runWithoutEnvironment("perf", "all-to-all", "--op", "x")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin perf all-to-all: --op must be write, read or send, got 'x'\n");
        assertThat(runWithoutEnvironment("ibstat", "--fabric", dir.resolve("none.topo").toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin ibstat: " + dir.resolve("none.topo") + ": no such file\n");
    }
}
