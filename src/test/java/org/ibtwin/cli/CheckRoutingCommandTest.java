package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.gen.Direct;
import org.ibtwin.model.LinkSpeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code ibtwin check-routing} through the command line: engines on a fabric file, live, and a saved LFT dump. */
class CheckRoutingCommandTest {
    @TempDir
    Path dir;

    private StringWriter out;
    private StringWriter err;

    private int run(String... args) {
        out = new StringWriter();
        err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    private Path torus() throws Exception {
        return FabricFiles.write(Direct.torus(new int[] {4, 3}, true, 1, 0, LinkSpeed.HDR), dir.resolve("t"))[1];
    }

    @Test
    void minhopOnATorusFailsWithACreditLoopAndDorPasses() throws Exception {
        Path yaml = torus();
        assertThat(run("check-routing", "-R", "minhop", "--fabric", yaml.toString())).as(err.toString()).isEqualTo(1);
        assertThat(out.toString()).startsWith("check-routing: " + yaml + ", minhop (").contains(": FAIL\n")
                .contains("  reachability: 132 CA pairs, 0 unreached, 0 loops\n")
                .contains("  deadlock: CREDIT LOOP (1 VL, ");
        assertThat(run("check-routing", "-R", "dor", "--fabric", yaml.toString())).isZero();
        assertThat(out.toString()).contains(": PASS\n").containsPattern("deadlock: free \\([2-8] VLs, ")
                .contains("0 pairs longer than the minimum");
        assertThat(run("check-routing", "-R", "dfsssp", "--fabric", yaml.toString(), "--json")).isZero();
        assertThat(out.toString()).contains("\"deadlockFree\" : true").contains("\"pairs\" : 132");
    }

    @Test
    void liveReadsTheTablesAndTheSlsOurSmProgrammed() throws Exception {
        Path yaml = torus();
        // the in-process twin of --fabric comes up under ibtwin's SM with minhop: a torus's credit loop
        assertThat(run("check-routing", "--fabric", yaml.toString())).isEqualTo(1);
        assertThat(out.toString()).contains("live, ").contains("SLs from the SA's PathRecords")
                .contains("reachability: 132 CA pairs, 0 unreached").contains("CREDIT LOOP (1 VL");
    }

    @Test
    void aSavedDumpIsReadWithTheTopology() throws Exception {
        Path yaml = torus();
        Path topo = dir.resolve("t.topo");
        assertThat(run("dump_lfts", "--fabric", yaml.toString())).isZero();
        Path dump = Files.writeString(dir.resolve("lfts.txt"), out.toString());
        assertThat(run("check-routing", "--topology", topo.toString(), "--lfts", dump.toString())).isEqualTo(1);
        assertThat(out.toString()).startsWith("check-routing: " + dump + " on " + topo + ": FAIL")
                .contains("reachability: 132 CA pairs, 0 unreached").contains("CREDIT LOOP");
        assertThat(run("check-routing", "--topology", topo.toString(), "--lfts", dir.resolve("none").toString()))
                .isEqualTo(2);
        assertThat(err.toString()).startsWith("ibtwin check-routing: --lfts: ").contains("none");
        Files.writeString(dir.resolve("bad.txt"), "Unicast lids [0x0-0x3] of switch Lid 1 guid 0x0000000000000099 "
                + "(x):\n0x0001 000 : (Switch portguid 0x0000000000000099: 'x')\n");
        assertThat(run("check-routing", "--topology", topo.toString(), "--lfts", dir.resolve("bad.txt").toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("bad.txt:2: port GUID 0x0000000000000099 is not in the fabric");
        assertThat(run("check-routing", "--lfts", dump.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin check-routing: --lfts and --topology go together\n");
    }
}
