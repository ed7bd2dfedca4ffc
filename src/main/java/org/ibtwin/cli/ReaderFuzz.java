package org.ibtwin.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.OfflineSource;
import org.ibtwin.doctor.Snapshot;
import org.ibtwin.doctor.SnapshotDiff;
import org.ibtwin.doctor.Thresholds;
import org.ibtwin.format.FabricDescription;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.format.FormatException;
import org.ibtwin.format.Guid2LidFile;
import org.ibtwin.format.GuidListFile;
import org.ibtwin.format.NodeNameMap;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.format.TopologyReader;
import org.ibtwin.format.tools.CounterOutputs;
import org.ibtwin.format.tools.DiscoveryOutputs;
import org.ibtwin.format.tools.HostOutputs;
import org.ibtwin.format.tools.SmOutputs;
import org.ibtwin.model.Fabric;
import org.ibtwin.sim.Console;
import org.ibtwin.sim.IbsimServer;
import org.ibtwin.sim.Twin;

/**
 * The reader fuzzer: every text reader (topology files, ibsim net files, fabric descriptions, partitions.conf,
 * guid2lid, node-name maps, root-GUID files, error thresholds, console scripts, snapshots and their diff, and the
 * readers of saved real-tool outputs, one by one and as {@code doctor --from} reads a directory of them) is fed
 * files made from a valid one by truncation, byte flips, binary junk, huge lines, invalid UTF-8, NULs, lines
 * dropped, doubled or swapped and numbers made huge or negative. Each must accept the file or fail with its own
 * exception whose message starts with the file's name ({@code file:line: ...}), within 10 s: any other exception,
 * a message without the file, or a hang is a finding, printed with the seed and the file in hex
 * ({@code -Dibtwin.fuzz.trace=true} prints each unchecked exception's stack trace too).
 */
final class ReaderFuzz {
    /** What one run found. */
    record Result(int readers, int files, int accepted, int rejected, int findings, double seconds,
                  List<String> problems) {
        boolean clean() {
            return findings == 0;
        }
    }

    /** A reader: reads {@code file} (named in messages as it is), throwing its own exception on bad input. */
    @FunctionalInterface
    interface Reader {
        void read(Path file) throws Exception;
    }

    private record Target(String name, String fileName, String sample, Reader reader,
                          Class<? extends Exception> own) {
    }

    private static final long TIMEOUT_SECONDS = 10;
    private static final int MAX_HEX = 2048;

    private final SplittableRandom r;
    private final long seed;
    private final Path dir;
    private final List<String> problems = new ArrayList<>();
    private ExecutorService worker = newWorker();
    private int files;
    private int accepted;
    private int rejected;

    private ReaderFuzz(long seed, Path dir) {
        this.seed = seed;
        this.r = new SplittableRandom(seed);
        this.dir = dir;
    }

    /** {@code perReader} broken files for every reader, from {@code seed}, in a scratch directory. */
    static Result run(int perReader, long seed) throws IOException {
        Path dir = Files.createTempDirectory("ibtwin-fuzz-readers-");
        try {
            return new ReaderFuzz(seed, dir).go(perReader);
        } finally {
            deleteTree(dir);
        }
    }

    private Result go(int perReader) throws IOException {
        long t0 = System.nanoTime();
        List<Target> targets = targets();
        for (Target t : targets) {
            Path sample = dir.resolve(t.fileName());
            Files.writeString(sample, t.sample());
            Outcome valid = call(() -> {
                t.reader().read(sample);
                return null;
            });
            if (valid.error != null || valid.hung) {
                problems.add(t.name() + ": the valid file itself is refused: " + (valid.hung ? "hung"
                        : valid.error.toString()));
            }
            for (int i = 0; i < perReader; i++) {
                byte[] input = mutate(t.sample().getBytes(StandardCharsets.UTF_8));
                one(t, input, i);
            }
        }
        offline(perReader, targets);
        worker.shutdownNow();
        return new Result(targets.size() + 1, files, accepted, rejected, problems.size(),
                (System.nanoTime() - t0) / 1e9, List.copyOf(problems));
    }

    private void one(Target t, byte[] input, int index) throws IOException {
        Path f = dir.resolve(t.fileName());
        Files.write(f, input);
        files++;
        Outcome o = call(() -> {
            t.reader().read(f);
            return null;
        });
        if (o.error == null && !o.hung) {
            accepted++;
            return;
        }
        String what = o.hung ? "hung (no answer in " + TIMEOUT_SECONDS + " s)" : null;
        if (what == null && t.own().isInstance(o.error)) {
            String msg = String.valueOf(o.error.getMessage());
            if (msg.startsWith(f.toString()) || msg.startsWith(t.fileName())) {
                if (msg.indexOf('\n') < 0) {
                    rejected++;
                    return;
                }
                what = "a message of more than one line: " + msg;
            } else {
                what = "a message that does not name the file: " + msg;
            }
        }
        if (what == null) {
            what = "an unchecked " + o.error.getClass().getName() + ": " + o.error.getMessage() + where(o.error);
        }
        finding(t.name(), index, what, input);
    }

    private void finding(String reader, int index, String what, byte[] input) {
        String hex = HexFormat.of().formatHex(input, 0, Math.min(input.length, MAX_HEX));
        problems.add(String.format("%s, file %d (seed %d): %s; input (%d bytes%s): %s", reader, index, seed, what,
                input.length, input.length > MAX_HEX ? ", the first " + MAX_HEX + " shown" : "", hex));
    }

    private static String where(Throwable e) {
        if (Boolean.getBoolean("ibtwin.fuzz.trace")) {
            e.printStackTrace();
        }
        for (StackTraceElement f : e.getStackTrace()) {
            if (f.getClassName().startsWith("org.ibtwin.") && !f.getClassName().startsWith(ReaderFuzz.class.getName())) {
                return " at " + f;
            }
        }
        return "";
    }

    /** {@code doctor --from DIR}: a directory of broken tool outputs, read as doctor reads it. */
    private void offline(int rounds, List<Target> targets) throws IOException {
        Path d = dir.resolve("offline");
        for (int i = 0; i < Math.max(1, rounds / 4); i++) {
            deleteTree(d);
            Files.createDirectories(d.resolve("node017"));
            List<byte[]> written = new ArrayList<>();
            for (Target t : targets) {
                if (t.name().startsWith("tool ")) {
                    byte[] b = mutate(t.sample().getBytes(StandardCharsets.UTF_8));
                    Path f = t.name().startsWith("tool host") ? d.resolve("node017").resolve(t.fileName())
                            : d.resolve(t.fileName());
                    Files.write(f, b);
                    written.add(b);
                }
            }
            files++;
            Outcome o = call(() -> OfflineSource.load(d));
            if (o.hung || (o.error != null && !(o.error instanceof FormatException))) {
                ByteArrayBuilder all = new ByteArrayBuilder();
                written.forEach(all::add);
                finding("doctor --from DIR", i, o.hung ? "hung" : "an unchecked " + o.error + where(o.error),
                        all.bytes());
            } else if (o.error != null) {
                rejected++;
            } else {
                accepted++;
            }
        }
    }

    private static final class ByteArrayBuilder {
        private final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();

        void add(byte[] b) {
            out.writeBytes(b);
            out.write(0x1e);
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }

    private record Outcome(Throwable error, boolean hung) {
    }

    private Outcome call(java.util.concurrent.Callable<Object> c) {
        Future<Object> f = worker.submit(c);
        try {
            f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return new Outcome(null, false);
        } catch (ExecutionException e) {
            return new Outcome(e.getCause(), false);
        } catch (TimeoutException e) {
            f.cancel(true);
            worker.shutdownNow();
            worker = newWorker();   // the stuck one is left to itself
            return new Outcome(null, true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(e, false);
        }
    }

    private static ExecutorService newWorker() {
        return Executors.newSingleThreadExecutor(run -> {
            Thread t = new Thread(run, "fuzz-reader");
            t.setDaemon(true);
            return t;
        });
    }

    // ---- the broken files ----

    /** One broken file from a valid one: one to three mutations. */
    byte[] mutate(byte[] valid) {
        byte[] b = valid;
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            b = mutateOnce(b);
        }
        return b;
    }

    private byte[] mutateOnce(byte[] b) {
        int len = b.length;
        switch (r.nextInt(12)) {
            case 0 -> {                                              // truncated
                return java.util.Arrays.copyOf(b, len == 0 ? 0 : r.nextInt(len));
            }
            case 1 -> {                                              // bytes flipped
                byte[] c = b.clone();
                for (int k = 0; k < 1 + r.nextInt(8) && len > 0; k++) {
                    c[r.nextInt(len)] ^= (byte) (1 << r.nextInt(8));
                }
                return c;
            }
            case 2 -> {                                              // binary junk inserted
                byte[] junk = new byte[1 + r.nextInt(256)];
                r.nextBytes(junk);
                return insert(b, junk);
            }
            case 3 -> {                                              // a huge line
                int size = 1 << (10 + r.nextInt(9));
                byte[] line = new byte[size];
                java.util.Arrays.fill(line, (byte) (r.nextBoolean() ? 'x' : '9'));
                return insert(b, line);
            }
            case 4 -> {                                              // invalid UTF-8
                byte[][] bad = {{(byte) 0xff}, {(byte) 0xc3}, {(byte) 0xe2, (byte) 0x82}, {(byte) 0xc0, (byte) 0xaf},
                    {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, {(byte) 0xf8, (byte) 0x88, (byte) 0x80, (byte) 0x80}};
                return insert(b, bad[r.nextInt(bad.length)]);
            }
            case 5 -> {                                              // NULs and control characters
                return insert(b, new byte[] {0, (byte) r.nextInt(32), 0});
            }
            case 6 -> {
                return new byte[0];                                  // empty
            }
            case 7, 8 -> {                                           // lines dropped, doubled or swapped
                List<String> lines = new ArrayList<>(List.of(new String(b, StandardCharsets.ISO_8859_1)
                        .split("\n", -1)));
                if (lines.size() > 1) {
                    int a = r.nextInt(lines.size());
                    int c = r.nextInt(lines.size());
                    switch (r.nextInt(3)) {
                        case 0 -> lines.remove(a);
                        case 1 -> lines.add(a, lines.get(c));
                        default -> java.util.Collections.swap(lines, a, c);
                    }
                }
                return String.join("\n", lines).getBytes(StandardCharsets.ISO_8859_1);
            }
            case 9 -> {                                              // a number made huge, negative or odd
                String s = new String(b, StandardCharsets.ISO_8859_1);
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\d+").matcher(s);
                List<int[]> at = new ArrayList<>();
                while (m.find()) {
                    at.add(new int[] {m.start(), m.end()});
                }
                if (at.isEmpty()) {
                    return b;
                }
                int[] p = at.get(r.nextInt(at.size()));
                String[] subs = {"-1", "0", "99999999999999999999", "4294967296", "65536", "-0", "1e9", "0x",
                    "18446744073709551616", "2147483648"};
                return (s.substring(0, p[0]) + subs[r.nextInt(subs.length)] + s.substring(p[1]))
                        .getBytes(StandardCharsets.ISO_8859_1);
            }
            case 10 -> {                                             // line ends changed
                return new String(b, StandardCharsets.ISO_8859_1).replace("\n", r.nextBoolean() ? "\r\n" : "\r")
                        .getBytes(StandardCharsets.ISO_8859_1);
            }
            default -> {                                             // random bytes, all of it
                byte[] c = new byte[r.nextInt(1024)];
                r.nextBytes(c);
                return c;
            }
        }
    }

    private byte[] insert(byte[] b, byte[] what) {
        int at = b.length == 0 ? 0 : r.nextInt(b.length + 1);
        byte[] c = new byte[b.length + what.length];
        System.arraycopy(b, 0, c, 0, at);
        System.arraycopy(what, 0, c, at, what.length);
        System.arraycopy(b, at, c, at + what.length, b.length - at);
        return c;
    }

    // ---- the readers and their valid files ----

    private List<Target> targets() throws IOException {
        Fabric f = FabricFiles.loadDefault();
        String topo = resource("fabrics/default.topo");
        String yaml = resource("fabrics/default.yaml");
        Files.writeString(dir.resolve("default.topo"), topo);
        Map<String, String> tools = toolOutputs();
        List<Target> t = new ArrayList<>();
        Class<FormatException> fe = FormatException.class;
        t.add(new Target("topology", "fuzz.topo", topo, p -> TopologyReader.read(p), fe));
        t.add(new Target("fabric file (any kind)", "fuzz.txt", topo, p -> FabricFiles.load(p), fe));
        t.add(new Target("ibsim net file", "fuzz.net", NET, p -> FabricFiles.load(p), fe));
        t.add(new Target("fabric description (YAML)", "fuzz.yaml", yaml.replace("default.topo",
                dir.resolve("default.topo").toString()), p -> FabricDescription.read(p), fe));
        t.add(new Target("fabric description + topology (YAML)", "fuzz2.yaml", yaml.replace("default.topo",
                dir.resolve("default.topo").toString()), p -> FabricFiles.load(p), fe));
        t.add(new Target("partitions.conf", "partitions.conf", PARTITIONS, p -> PartitionsConf.read(p), fe));
        t.add(new Target("guid2lid", "guid2lid", GUID2LID, p -> Guid2LidFile.read(p), fe));
        t.add(new Target("node-name map", "ib-node-name-map", NODE_NAME_MAP, p -> NodeNameMap.read(p), fe));
        t.add(new Target("root GUIDs", "root_guids", ROOT_GUIDS, p -> GuidListFile.read(p), fe));
        t.add(new Target("error thresholds", "error_thresholds", THRESHOLDS, p -> Thresholds.read(p), fe));
        Snapshot snap = Snapshot.of(FabricState.of(f, "default fabric", null));
        t.add(new Target("snapshot", "fuzz-snapshot.json", snap.toJson(), p -> SnapshotDiff.of(snap,
                Snapshot.read(p)), fe));
        Twin twin = Twin.of(f);
        IbsimServer idle = new IbsimServer(n -> twin.attach(n, 0));
        String leaf = f.switches().get(0).name();
        String host = f.cas().get(0).name();
        String script = String.join("\n", "# a console script", "clients", "Unlink \"" + host + "\"[1]",
                "ReLink \"" + host + "\"[1]", "Error \"" + leaf + "\"[3] 50", "Error \"" + leaf + "\"[3] 0",
                "PerformanceSet \"" + host + "\"[1] PortCounters.SymbolErrorCounter=7",
                "down " + host + " 1", "up " + host + " 1", "Help", "") + "\n";
        t.add(new Target("console script", "fuzz-script.txt", script, p -> new Console(twin, idle,
                new PrintWriter(new StringWriter())).runScript(p), Console.CommandException.class));
        for (Map.Entry<String, String> e : tools.entrySet()) {
            String name = e.getKey();
            String text = e.getValue();
            Reader rd = switch (name) {
                case "perfquery" -> p -> CounterOutputs.perfquery(read(p), p.toString());
                case "ibqueryerrors" -> p -> CounterOutputs.ibqueryerrors(read(p), p.toString());
                case "iblinkinfo" -> p -> DiscoveryOutputs.iblinkinfo(read(p), p.toString());
                case "ibnetdiscover-p" -> p -> DiscoveryOutputs.ports(read(p), p.toString());
                case "ibstat" -> p -> HostOutputs.ibstat(read(p), p.toString());
                case "ibstatus" -> p -> HostOutputs.ibstatus(read(p), p.toString());
                case "ibv_devinfo" -> p -> HostOutputs.ibvDevinfo(read(p), p.toString());
                case "sminfo" -> p -> SmOutputs.sminfo(read(p), p.toString());
                case "saquery" -> p -> SmOutputs.saquery(read(p), p.toString());
                case "ibroute" -> p -> SmOutputs.ibroute(read(p), p.toString());
                case "lspci-vv" -> p -> HostOutputs.lspci(read(p), p.toString());
                case "ip-link" -> p -> HostOutputs.ipLink(read(p), p.toString());
                case "ifcfg-ib0" -> p -> HostOutputs.ifcfg(read(p), p.toString());
                case "numactl" -> p -> HostOutputs.numactl(read(p), p.toString());
                default -> throw new IllegalStateException(name);
            };
            boolean hostTool = List.of("ibstat", "ibstatus", "ibv_devinfo", "lspci-vv", "ip-link", "ifcfg-ib0",
                    "numactl").contains(name);
            t.add(new Target((hostTool ? "tool host " : "tool ") + name, name + ".txt", text, rd, fe));
        }
        return t;
    }

    /** A file as the tool readers get it: text, decoded as doctor decodes it (bad UTF-8 is the caller's check). */
    private static String read(Path p) throws IOException {
        return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
    }

    private static String resource(String name) throws IOException {
        try (var in = ReaderFuzz.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("resource " + name + " missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The tools' outputs, as ibtwin's own tools print them (the real tools' lines) on the default fabric. */
    private static Map<String, String> toolOutputs() {
        Map<String, String> m = new LinkedHashMap<>();
        String[][] runs = {{"perfquery", "perfquery"}, {"ibqueryerrors", "ibqueryerrors"},
            {"iblinkinfo", "iblinkinfo"}, {"ibnetdiscover-p", "ibnetdiscover", "-p"}, {"ibstat", "ibstat"},
            {"ibstatus", "ibstatus"}, {"ibv_devinfo", "ibv_devinfo"}, {"sminfo", "sminfo"},
            {"saquery", "saquery"}, {"ibroute", "ibroute", "2"}};
        for (String[] run : runs) {
            StringWriter out = new StringWriter();
            picocli.CommandLine cl = Main.commandLine();
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(new StringWriter(), true));
            String[] args = java.util.Arrays.copyOfRange(run, 1, run.length);
            cl.execute(args);
            m.put(run[0], out.toString());
        }
        m.put("lspci-vv", LSPCI);
        m.put("ip-link", IP_LINK);
        m.put("ifcfg-ib0", IFCFG);
        m.put("numactl", NUMACTL);
        return m;
    }

    private static void deleteTree(Path d) throws IOException {
        if (!Files.exists(d)) {
            return;
        }
        try (Stream<Path> s = Files.walk(d)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    // ---- valid files written here (formats as the real tools write them; values made up) ----

    private static final String NET = String.join("\n",
            "Switch\t4 \"S-0008f10400000100\"\t\t# \"leaf\" enhanced port 0 lid 1 lmc 0",
            "[1]\t\"H-0002c90300000200\"[1]\t\t# \"host1\" lid 11 4xHDR",
            "[2]\t\"H-0002c90300000210\"[1]\t\t# \"host2\" lid 12 4xHDR",
            "",
            "Ca\t1 \"H-0002c90300000200\"\t\t# \"host1 HCA-1\"",
            "[1](2c90300000201) \t\"S-0008f10400000100\"[1]\t\t# lid 11 lmc 0 \"leaf\" lid 1 4xHDR",
            "",
            "Ca\t1 \"H-0002c90300000210\"\t\t# \"host2 HCA-1\"",
            "[1](2c90300000211) \t\"S-0008f10400000100\"[2]\t\t# lid 12 lmc 0 \"leaf\" lid 1 4xHDR", "");
    private static final String PARTITIONS = String.join("\n",
            "# partitions", "Default=0x7fff, ipoib : ALL=full ;",
            "storage=0x0002, ipoib, mtu=4, rate=12 : 0xec0d9a0300ec8481=full, 0x0002c90300000003=limited ;",
            "compute=0x8003 : ALL_CAS=limited, SELF=full ;", "");
    private static final String GUID2LID = String.join("\n", "0x0002c90300000003 6 6",
            "0xec0d9a0300ec8481 7 7", "0xb8599f0300000001 8 9", "");
    private static final String NODE_NAME_MAP = String.join("\n", "# node names",
            "0xec0d9a0300ec8480 \"leaf01\"", "0x98039b0300000001\t\"spine01 with a space\"", "");
    private static final String ROOT_GUIDS = String.join("\n", "0xec0d9a0300ec8480", "0x98039b0300000001", "");
    private static final String THRESHOLDS = String.join("\n", "# error thresholds",
            "SymbolErrorCounter=10", "LinkErrorRecoveryCounter=3", "PortRcvErrors=10", "");
    private static final String LSPCI = String.join("\n",
            "3b:00.0 Infiniband controller: Mellanox Technologies MT28908 Family [ConnectX-6]",
            "\tSubsystem: Mellanox Technologies Device 0007",
            "\tNUMA node: 0",
            "\tCapabilities: [60] Express (v2) Endpoint, MSI 00",
            "\t\tLnkCap:\tPort #0, Speed 16GT/s, Width x16, ASPM not supported",
            "\t\tLnkSta:\tSpeed 8GT/s (downgraded), Width x8 (downgraded)",
            "\tKernel driver in use: mlx5_core", "");
    private static final String IP_LINK = String.join("\n",
            "4: ib0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 2044 qdisc mq state UP mode DEFAULT group default "
                    + "qlen 256",
            "    link/infiniband 00:00:10:29:fe:80:00:00:00:00:00:00:ec:0d:9a:03:00:ec:84:81 brd "
                    + "00:ff:ff:ff:ff:12:40:1b:ff:ff:00:00:00:00:00:00:ff:ff:ff:ff", "");
    private static final String IFCFG = String.join("\n", "DEVICE=ib0", "TYPE=InfiniBand", "ONBOOT=yes",
            "CONNECTED_MODE=no", "MTU=2044", "");
    private static final String NUMACTL = String.join("\n", "policy: default", "preferred node: current",
            "physcpubind: 0 1 2 3", "cpubind: 0", "nodebind: 0", "membind: 0 1", "");
}
