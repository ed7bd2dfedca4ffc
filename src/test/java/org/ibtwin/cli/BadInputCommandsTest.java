package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.sim.Attachment;
import org.ibtwin.sim.IbsimServer;
import org.ibtwin.sim.Twin;
import org.junit.jupiter.api.Test;

/**
 * Bad input through the public command line, as a new user types it: every output path, every missing input, every
 * taken port is one line naming it and exit 2, found before any slow work, with nothing created on the way.
 */
class BadInputCommandsTest extends CliTest {
    /**
     * An output file that cannot be written (under /proc, where nothing can be created) is one line, exit 2. Only
     * the write finds that out, after the run: the perftest tools' runs on the built-in fabric have said so first.
     */
    @Test
    void unwritableOutputPathsAreOneLineNamingThemAndExitTwo() {
        String notice = "ibtwin: no HCA here: querying the simulated fabric default (built-in)\n";
        assertThat(run("ib_write_bw", "node001", "node002", "-a", "--plot", "/proc/x.png")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo(notice + "ibtwin ib_write_bw: --plot: cannot write /proc/x.png: No "
                + "such file or directory\n");
        assertThat(run("ib_write_bw", "node001", "node002", "--out_json=/proc/x.json")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo(notice + "ibtwin ib_write_bw: --out_json: cannot write /proc/x.json: "
                + "No such file or directory\n");
        assertThat(run("snapshot", "save", "-o", "/proc/x.json", "src/main/resources/fabrics/default.yaml"))
                .isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin snapshot save: -o: cannot write /proc/x.json: No such file or "
                + "directory\n");
        assertThat(run("gen", "back-to-back", "-o", "/proc/x")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin gen back-to-back: cannot write /proc/x.topo: No such file or "
                + "directory\n");
    }

    /** A CA this host does not have, asked for by --umad or -C, is one line and exit 2 (this host has no HCA). */
    @Test
    void aCaThatIsNotHereIsOneLineAndExitTwo() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Runtime.version().feature() >= 22
                && !java.nio.file.Files.exists(Path.of("/sys/class/infiniband_mad")), "a host without HCAs, JDK 22+");
        String line = ": CA mlx5_9 not found: no InfiniBand port with a umad device here "
                + "(/sys/class/infiniband_mad lists none)\n";
        assertThat(run("ibnetdiscover", "--umad", "mlx5_9")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin ibnetdiscover" + line);
        assertThat(out.toString()).isEmpty();
        assertThat(run("perfquery", "-C", "mlx5_9", "-P", "1")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin perfquery" + line);
        assertThat(run("sm", "-o", "--umad=mlx5_9:1")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin sm: cannot attach as SM to umad mlx5_9:1: CA mlx5_9 not found: "
                + "no InfiniBand port with a umad device here (/sys/class/infiniband_mad lists none)\n");
        assertThat(run("ibnetdiscover", "--umad", "mlx5_0:x")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin ibnetdiscover: --umad mlx5_0:x: not a port number (0-254)\n");
    }

    /** A directory that is not there is refused before any work, and not created. */
    @Test
    void aMissingOutputDirectoryIsRefusedNotCreated() {
        Path missing = dir.resolve("nonexistent/dir");
        assertThat(run("gen", "back-to-back", "-o", missing + "/x")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin gen back-to-back: -o " + missing + "/x: no such directory "
                + missing + "\n");
        assertThat(missing.getParent()).doesNotExist();
        assertThat(run("snapshot", "save", "-o", missing + "/s.json")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin snapshot save: -o " + missing + "/s.json: no such directory "
                + missing + "\n");
        assertThat(run("ib_write_bw", "node001", "node002", "-a", "--plot", missing + "/p.svg")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin ib_write_bw: --plot " + missing + "/p.svg: no such directory "
                + missing + "\n");
        assertThat(out.toString()).isEmpty();   // refused before the run, not after its table
        assertThat(run("ib_read_lat", "node001", "node002", "--out_json_file", missing + "/r.json")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin ib_read_lat: --out_json_file " + missing + "/r.json: no such "
                + "directory " + missing + "\n");
        assertThat(run("snapshot", "save", "-o", dir.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin snapshot save: -o " + dir + ": is a directory\n");
        assertThat(missing.getParent()).doesNotExist();
    }

    @Test
    void aMissingScriptIsRefusedBeforeTheTwinStarts() {
        assertThat(run("up", "--once", "--script", "/nonexistent")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin up: --script /nonexistent: no such file\n");
        assertThat(out.toString()).isEmpty();
        assertThat(run("up", "--script", "/nonexistent", "--port", "18110")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin up: --script /nonexistent: no such file\n");
        // checked before the endpoint and the JIT warm-up (2 s by default): no "ready" line
        assertThat(run("sim", "--script", "missing", "--port", "18110")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin sim: --script missing: no such file\n");
        assertThat(out.toString()).isEmpty();
        assertThat(run("sim", "--script", dir.toString(), "--port", "18110")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin sim: --script " + dir + ": is a directory, not a file\n");
    }

    @Test
    void aScriptWithOnceIsRefusedNotIgnored() throws Exception {
        Path s = dir.resolve("quit.sim");
        Files.writeString(s, "Quit\n");
        assertThat(run("up", "--once", "--script", s.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin up: --script runs in the console, which --once does not start "
                + "(drop --once and end the script with Quit)\n");
    }

    @Test
    void aGuid2lidDirectoryIsOneLineAndExitTwo() {
        assertThat(run("up", "--once", "--guid2lid", dir.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin up: --guid2lid " + dir + ": is a directory, not a file\n");
        assertThat(out.toString()).isEmpty();
    }

    /** A second {@code up} on a taken port refuses before its SM brings anything up. */
    @Test
    void upOnATakenPortRefusesBeforeTheSubnetComesUp() throws Exception {
        try (DatagramChannel taken = DatagramChannel.open(StandardProtocolFamily.INET)) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 18120));
            assertThat(run("up", "--port", "18120", "--no-console")).isEqualTo(2);
            assertThat(err.toString()).isEqualTo("ibtwin up: --port: port 18120 of 127.0.0.1 is taken (an ibsim "
                    + "server needs 18120..18130)\n");
            assertThat(out.toString()).isEmpty();
        }
    }

    /** A Wait longer than an hour is a typo: one error line, not a hang. */
    @Test
    void aHugeWaitIsOneLineNotAHang() throws Exception {
        Path s = dir.resolve("wait.sim");
        Files.writeString(s, "Wait 99999999999\nQuit\n");
        assertThat(run("sim", "--port", "18140", "--warmup", "0", "--no-console", "--script", s.toString()))
                .isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin sim: " + s + ":1: wait: bad param 99999999999 (1..3600 "
                + "seconds)\n");
    }

    /** {@code sm} where {@code up}'s SM already runs: refused in one line, not a second MASTER. */
    @Test
    void aSecondSmOnTheSamePortIsRefused() throws Exception {
        Twin twin = Twin.of(FabricFiles.load((String) null));
        Attachment upSm = twin.attach(null, 0);   // where up puts its SM: the first CA's port 1
        upSm.setIsSm(true);
        try (IbsimServer server = new IbsimServer(node -> twin.attach(node, 0))) {
            server.start(InetAddress.getLoopbackAddress(), 18150);
            assertThat(run("sm", "-o", "--ibsim", "127.0.0.1:18150")).isEqualTo(2);
            assertThat(err.toString()).isEqualTo("ibtwin sm: another SM already runs at 127.0.0.1:18150 node "
                    + "\"H-0002c90300000002\" port 1 (its IsSM bit is set); attach this one at another port "
                    + "(--sim-host NODE or -g GUID)\n");
        }
    }

    /** A server that takes the CONNECT but never answers a MAD: one plain line, no "internal error". */
    @Test
    void aServerThatNeverAnswersIsOnePlainLine() throws Exception {
        Twin twin = Twin.of(FabricFiles.load((String) null));
        try (IbsimServer server = new IbsimServer(node -> mute(twin.attach(node, 0)))) {
            server.start(InetAddress.getLoopbackAddress(), 18160);
            assertThat(run("sm", "-o", "--ibsim", "127.0.0.1:18160", "-t", "20", "--retries", "0")).isEqualTo(1);
            assertThat(err.toString()).isEqualTo("ibtwin sm: discovery failed: the SM's own port does not answer "
                    + "NodeInfo (NodeInfo of the SM's own node: timeout (1 attempts of 20 ms))\n");
        }
    }

    /** An attachment that accepts the connection and drops every MAD: a's in all else. */
    private static Attachment mute(Attachment a) {
        InvocationHandler muted = (proxy, method, args) -> {
            if (method.getName().equals("send") || method.getName().equals("onReceive")) {
                return null;   // every MAD dropped, nothing ever arrives
            }
            try {
                return method.invoke(a, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return (Attachment) Proxy.newProxyInstance(Attachment.class.getClassLoader(), new Class<?>[] {Attachment.class},
                muted);
    }
}
