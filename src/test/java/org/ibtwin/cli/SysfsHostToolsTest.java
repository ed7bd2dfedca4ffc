package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.ibtwin.transport.UmadSysfs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * ibstat and ibstatus over --umad read the host's sysfs, here a hand-made tree ({@link SysfsTree}) that
 * {@code -Dibtwin.sysfs} puts in place of /sys: the lines the real tools print from it (SysfsInteropTest runs the
 * real ones on the same tree), and one line naming the file for a sysfs ibstat cannot read.
 */
class SysfsHostToolsTest {
    @TempDir
    Path sys;

    record Run(int exit, String out, String err) {
    }

    @BeforeEach
    void tree() throws Exception {
        Assumptions.assumeTrue(Runtime.version().feature() >= 22, "the umad transport's libc needs a JDK 22+");
        SysfsTree.write(sys);
        System.setProperty(UmadSysfs.ROOT_PROPERTY, sys.toString());
    }

    @AfterEach
    void back() {
        System.clearProperty(UmadSysfs.ROOT_PROPERTY);
    }

    static Run run(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int rc = cl.execute(args);
        return new Run(rc, out.toString(), err.toString().replaceAll("\\[\\d+\\]", "[PID]"));
    }

    private static final String MLX5_1_HEAD = """
            CA 'mlx5_1'
            \tCA type: MT4123
            \tNumber of ports: 2
            \tFirmware version: 20.37.1014
            \tHardware version: 0x0
            \tNode GUID: 0xb8599f0300123456
            \tSystem image GUID: 0xb8599f0300123456
            """;

    @Test
    void ibstatPrintsEveryCaFromSysfs() {
        Run r = run("ibstat", "--umad");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("""
                CA 'mlx5_0'
                \tCA type: MT4129
                \tNumber of ports: 1
                \tFirmware version: 28.39.1002
                \tHardware version: 0x0
                \tNode GUID: 0xec0d9a0300a45e10
                \tSystem image GUID: 0xec0d9a0300a45e10
                \tPort 1:
                \t\tState: Active
                \t\tPhysical state: LinkUp
                \t\tRate: 400
                \t\tBase lid: 27
                \t\tLMC: 0
                \t\tSM lid: 1
                \t\tCapability mask: 0xa751e848
                \t\tPort GUID: 0xec0d9a0300a45e10
                \t\tLink layer: InfiniBand
                """ + MLX5_1_HEAD).endsWith("""
                \tPort 2:
                \t\tState: Down
                \t\tPhysical state: Disabled
                \t\tRate: 10
                \t\tBase lid: 65535
                \t\tLMC: 0
                \t\tSM lid: 0
                \t\tCapability mask: 0xa651e84a
                \t\tPort GUID: 0xb8599f0300123457
                \t\tLink layer: InfiniBand
                """);
        assertThat(run("ibstat", "--umad", "-l").out()).isEqualTo("mlx5_0\nmlx5_1\n");
        assertThat(run("ibstat", "--umad", "-p").out())
                .isEqualTo("0xec0d9a0300a45e10\n0xb8599f0300123456\n0xb8599f0300123457\n");
        assertThat(run("ibstat", "-s", "mlx5_1", "--umad").out()).isEqualTo(MLX5_1_HEAD);
        assertThat(run("ibstat", "--umad", "mlx5_1:2").out()).isEqualTo("""
                CA: 'mlx5_1'
                Port 2:
                State: Down
                Physical state: Disabled
                Rate: 10
                Base lid: 65535
                LMC: 0
                SM lid: 0
                Capability mask: 0xa651e84a
                Port GUID: 0xb8599f0300123457
                Link layer: InfiniBand
                """);
        Run noPort = run("ibstat", "mlx5_1", "3", "--umad");
        assertThat(noPort.exit()).isEqualTo(255);
        assertThat(noPort.err()).isEqualTo("ibwarn: [PID] ca_stat: CA: 'mlx5_1' has no port number 3 - max (2)\n"
                + "ibpanic: [PID] main: stat of IB device 'mlx5_1' failed: Success\n");
        Run none = run("ibstat", "mlx5_9", "--umad");
        assertThat(none.exit()).isEqualTo(255);
        assertThat(none.err()).isEqualTo("ibpanic: [PID] main: 'mlx5_9' IB device can't be found: Success\n");
    }

    @Test
    void ibstatusEchoesTheFilesAsTheScriptDoes() {
        Run r = run("ibstatus", "mlx5_1:2", "mlx5_1:7", "--umad");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("""
                Infiniband device 'mlx5_1' port 2 status:
                \tdefault gid:\t fe80:0000:0000:0000:b859:9f03:0012:3457
                \tbase lid:\t 0xffff
                \tsm lid:\t\t 0x0
                \tstate:\t\t 1: DOWN
                \tphys state:\t 3: Disabled
                \trate:\t\t 10 Gb/sec (4X)
                \tlink_layer:\t InfiniBand

                Infiniband device 'mlx5_1' port 7 status:
                \tdefault gid:\t unknown
                \tbase lid:\t unknown
                \tsm lid:\t\t unknown
                \tstate:\t\t unknown
                \tphys state:\t unknown
                \trate:\t\t unknown
                \tlink_layer:\t IB

                """);
        assertThat(run("ibstatus", "--umad").out()).startsWith("Infiniband device 'mlx5_0' port 1 status:\n"
                + "\tdefault gid:\t fe80:0000:0000:0000:ec0d:9a03:00a4:5e10\n\tbase lid:\t 0x1b\n")
                .contains("\trate:\t\t 400 Gb/sec (4X NDR)\n").contains("\trate:\t\t 200 Gb/sec (4X HDR)\n");
        Run none = run("ibstatus", "mlx5_9", "--umad");
        assertThat(none.exit()).isEqualTo(255);
        assertThat(none.out()).isEqualTo("Fatal error:  device 'mlx5_9': sys files not found (" + sys
                + "/class/infiniband/mlx5_9/ports)\n");
    }

    @Test
    void ibvDevinfoListsTheCasAndNeedsTheDeviceForWhatOnlyItTells() {
        assertThat(run("ibv_devinfo", "-l", "--umad").out()).isEqualTo("2 HCAs found:\n\tmlx5_0\n\tmlx5_1\n\n");
        Run r = run("ibv_devinfo", "-d", "mlx5_1", "--umad");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("ibtwin ibv_devinfo: open /dev/infiniband/umad1: No such file or directory\n");
        Run none = run("ibv_devinfo", "-d", "mlx5_9", "--umad");
        assertThat(none.exit()).isEqualTo(255);
        assertThat(none.err()).isEqualTo("IB device 'mlx5_9' wasn't found\n");
    }

    @Test
    void aFileIbstatCannotReadIsOneLineNamingIt() throws Exception {
        Path rate = sys.resolve("class/infiniband/mlx5_1/ports/2/rate");
        Files.delete(rate);
        Run missing = run("ibstat", "-C", "mlx5_1");
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.out()).isEmpty();
        assertThat(missing.err()).isEqualTo("ibtwin ibstat: " + rate + ": No such file or directory\n");
        Files.createDirectory(rate);   // there, but not readable as a file (root reads past any mode bits)
        Run unreadable = run("ibstat", "--umad");
        assertThat(unreadable.exit()).isEqualTo(2);
        assertThat(unreadable.err()).isEqualTo("ibtwin ibstat: " + rate + ": Is a directory\n");
        // the script prints what it cannot read as unknown
        assertThat(run("ibstatus", "--umad", "mlx5_1:2").out()).contains("\trate:\t\t unknown\n");
        SysfsTree.file(sys, "class/infiniband/mlx5_0/node_guid", "ec0d:9a03");
        Run bad = run("ibstat", "mlx5_0", "--umad");
        assertThat(bad.err()).isEqualTo("ibtwin ibstat: " + sys
                + "/class/infiniband/mlx5_0/node_guid: not a GUID: 'ec0d:9a03'\n");
    }
}
