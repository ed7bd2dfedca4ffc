package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.model.Fabric;
import org.ibtwin.sim.Attachment;
import org.ibtwin.sim.Twin;
import org.ibtwin.sim.TwinTransport;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.sm.SweepReport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ibtwin saquery} against our SM's SA on the default fabric's twin, in process. */
class SaqueryCommandTest {
    private static Twin twin;
    private static TwinTransport smPort;
    private static SweepReport sweep;

    record Run(int exit, String out, String err) {
    }

    @BeforeAll
    static void bringUp() {
        Fabric f = FabricFiles.loadDefault();
        twin = Twin.of(f);
        Attachment a = twin.attach("node001", 1);
        a.setIsSm(true);
        smPort = new TwinTransport(a);
        SubnetManager sm = new SubnetManager(smPort, SmConfig.defaults(), null);
        sm.partitions(PartitionsConf.parse("Default=0x7fff, ipoib : ALL=full ;\n", "p.conf"));
        sweep = sm.sweep();
        assertThat(sweep.subnetUp()).isTrue();
    }

    @AfterAll
    static void down() {
        smPort.close();
    }

    @AfterEach
    void restore() {
        DiagCommand.opener = TransportOptions::open;
    }

    private static Run run(String... args) {
        DiagCommand.opener = o -> new TwinTransport(twin.attach("node002", 1));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] all = new String[args.length + 1];
        all[0] = "saquery";
        System.arraycopy(args, 0, all, 1, args.length);
        int rc = Cli.execute(out, err, all);
        return new Run(rc, out.toString(), err.toString());
    }

    @Test
    void smInfoRecordAsSaqueryPrintsIt() {
        Run r = run("SMIR");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEqualTo("SMInfoRecord dump:\n\t\tRID\n\t\tLID..................." + sweep.smLid()
                + "\n\t\tSMInfo dump:\n\t\tGUID..................0x0002c90300000003\n"
                + "\t\tSM_Key................0x0000000000000000\n\t\tActCount..............1\n"
                + "\t\tPriority..............0\n\t\tSMState...............3\n");
    }

    @Test
    void everyNodeAndLinkComesWholeAndJsonCarriesTheFields() throws Exception {
        Run nr = run("NR");
        assertThat(nr.out().split("NodeRecord dump:", -1)).hasSize(66);
        assertThat(run("-x").out().split("LinkRecord dump:", -1)).hasSize(241);
        JsonNode j = new ObjectMapper().readTree(run("NR", "--json").out());
        assertThat(j.size()).isEqualTo(65);
        assertThat(j.get(0).get("record").asText()).isEqualTo("NodeRecord");
        assertThat(j.get(0).get("Lid").asInt()).isEqualTo(1);
        Run lid = run("-l", "node017 mlx5_0");
        assertThat(lid.out()).isEqualTo(twin.lid("node017", 1) + "\n");
        Run path = run("--src-to-dst", "node002 mlx5_0:node017 mlx5_0");
        assertThat(path.out()).contains("pkey....................0xFFFF").contains("rate....................0x91");
    }

    @Test
    void errorsAsSaqueryReportsThem() {
        Run unsupported = run("SL2VL");
        assertThat(unsupported.exit()).isEqualTo(5);
        assertThat(unsupported.err()).isEqualTo("ERROR: Query result returned 0x000c,  (; ; MAD Method/Attribute "
                + "combination is not supported)\n");
        Run name = run("NR", "nosuchnode");
        assertThat(name.exit()).isEqualTo(64);
        assertThat(name.err()).isEqualTo("Failed to find lid for \"nosuchnode\": Machine is not on the network\n");
        Run none = run("NR", "999");
        assertThat(none.exit()).isZero();
        assertThat(none.out()).isEmpty();
        Run noName = run("-L");
        assertThat(noName.exit()).isEqualTo(2);
        assertThat(noName.err()).startsWith("ERROR: name not specified\n");
    }

    /** A partitions file p.conf in dir holding text. */
    private static Path partitionsFile(Path dir, String text) throws IOException {
        return Files.writeString(dir.resolve("p.conf"), text);
    }

    @Test
    void upTakesAPartitionsFileAndABadOneIsOneLineExit2(@TempDir Path dir) throws Exception {
        Path bad = partitionsFile(dir, "Default=0x7fff : ALL ;\nblue=0x0010 : ALL=sometimes ;\n");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(Cli.execute(out, err, "up", "--once", "-P", bad.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin up: " + bad + ":2: membership \"sometimes\" of ALL is not full, "
                + "limited or both\n");
    }

    @Test
    void aFileThatLocksTheSmOutIsWarnedAndRefusedWithStrict(@TempDir Path dir) throws Exception {
        Path lock = partitionsFile(dir, "Default=0x7fff : ALL=limited ;\nbad=0x8000 : ALL=full ;\n");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String line = lock + ":1: Default partition member ALL=limited leaves the SM's own port a limited member of "
                + "the Default partition (0x7fff): no port can reach the SA (add SELF=full)";
        String pkey = lock + ":2: P_Key 0x8000 of partition \"bad\" has partition number 0, which is no P_Key; as "
                + "OpenSM, it gets a generated one";
        assertThat(Cli.execute(out, err, "up", "--once", "--strict", "-P", lock.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin up: warning: " + pkey + "\nibtwin up: --strict: refusing "
                + line + "\n");
        assertThat(out.toString()).doesNotContain("SUBNET");
        err.getBuffer().setLength(0);
        assertThat(Cli.execute(out, err, "up", "--once", "-P", lock.toString())).isZero();
        assertThat(err.toString()).contains("ibtwin up: warning: " + line + "\n");
        assertThat(out.toString()).contains("SUBNET UP");
    }
}
