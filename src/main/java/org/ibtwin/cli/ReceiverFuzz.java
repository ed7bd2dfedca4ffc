package org.ibtwin.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.ibtwin.transport.IbsimWire;

/**
 * The receive-path fuzzer: a fake ibsim server on loopback that accepts a client's CONNECT as ibsim does, then
 * answers every MAD with garbage made from it (random bytes, the request with random fields, truncated or
 * oversized datagrams, wrong TIDs, error statuses, or every node the same CA: a port that leads back to itself),
 * while ibtwin's SM ({@code sm -o}) and its diag tools run against it through the command line. Each run must end
 * within its time with its own error lines: no stack trace, no "internal error", no Java class name.
 */
final class ReceiverFuzz {
    /** What one run found. */
    record Result(int cases, int exitedClean, int findings, double seconds, List<String> problems) {
        boolean clean() {
            return findings == 0;
        }
    }

    private static final long CASE_SECONDS = 60;
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final String[][] COMMANDS = {{"sm", "-o"}, {"ibnetdiscover"}, {"iblinkinfo"}, {"ibswitches"},
        {"smpquery", "nodeinfo", "1"}, {"smpquery", "-D", "portinfo", "0"}, {"perfquery", "1", "1"},
        {"saquery"}, {"sminfo"}, {"ibstat"}, {"ibroute", "1"}, {"ibtracert", "1", "2"}, {"ibaddr"},
        {"ibportstate", "1", "1"}, {"ibqueryerrors"}};
    private static final int MODES = 9;

    private final long seed;
    private final SplittableRandom r;
    private final List<String> problems = new ArrayList<>();

    private ReceiverFuzz(long seed) {
        this.seed = seed;
        this.r = new SplittableRandom(seed);
    }

    /** The commands run, one after another, by their first word (all of them when {@code only} is empty). */
    static List<String[]> commands(List<String> only) {
        List<String[]> l = new ArrayList<>();
        for (String[] c : COMMANDS) {
            if (only.isEmpty() || only.contains(c[0])) {
                l.add(c);
            }
        }
        if (l.isEmpty()) {
            throw new IllegalArgumentException("--commands: none of " + only + " is fuzzed (" + String.join(", ",
                    java.util.Arrays.stream(COMMANDS).map(c -> c[0]).distinct().toList()) + ")");
        }
        return l;
    }

    static Result run(int cases, long seed, List<String[]> commands) throws IOException {
        return new ReceiverFuzz(seed).go(cases, commands);
    }

    private Result go(int cases, List<String[]> commands) throws IOException {
        long t0 = System.nanoTime();
        int ok = 0;
        ExecutorService worker = Executors.newSingleThreadExecutor(run -> {
            Thread t = new Thread(run, "fuzz-receiver");
            t.setDaemon(true);
            return t;
        });
        try {
            for (int i = 0; i < cases; i++) {
                String[] cmd = commands.get(i % commands.size());
                int mode = r.nextInt(MODES);
                long caseSeed = r.nextLong();
                try (Garbage g = new Garbage(mode, caseSeed)) {
                    List<String> args = new ArrayList<>(List.of(cmd));
                    args.add("--ibsim");
                    args.add("127.0.0.1:" + g.port());
                    StringWriter out = new StringWriter();
                    StringWriter err = new StringWriter();
                    Future<Integer> f = worker.submit(() -> {
                        picocli.CommandLine cl = Main.commandLine();
                        cl.setOut(new PrintWriter(out, true));
                        cl.setErr(new PrintWriter(err, true));
                        return cl.execute(args.toArray(String[]::new));
                    });
                    String what = null;
                    try {
                        f.get(CASE_SECONDS, TimeUnit.SECONDS);
                    } catch (TimeoutException e) {
                        f.cancel(true);
                        worker.shutdownNow();
                        worker = Executors.newSingleThreadExecutor();
                        what = "hung (no end in " + CASE_SECONDS + " s)";
                    } catch (ExecutionException e) {
                        what = "threw " + e.getCause();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                    String e = err.toString();
                    if (what == null && (e.contains("\tat ") || e.contains("internal error")
                            || e.matches("(?s).*\\b(java|org\\.ibtwin)\\.[a-z]+\\.[A-Za-z.]*(Exception|Error)\\b.*"))) {
                        what = "printed " + e.strip();
                    }
                    if (what == null) {
                        ok++;
                    } else {
                        problems.add(String.format("ibtwin %s against a server answering garbage (mode %d, case %d, "
                                + "seed %d): %s; the first request and its answer: %s", String.join(" ", args), mode,
                                i, seed, what, g.firstExchange()));
                    }
                }
            }
        } finally {
            worker.shutdownNow();
        }
        return new Result(cases, ok, problems.size(), (System.nanoTime() - t0) / 1e9, List.copyOf(problems));
    }

    /** The fake server: one client slot; every MAD answered with garbage of the case's mode. */
    private static final class Garbage implements AutoCloseable {
        final int mode;
        final SplittableRandom r;
        final DatagramChannel ctl;
        final DatagramChannel data;
        final Thread ctlThread;
        final Thread dataThread;
        volatile SocketAddress client;
        volatile String first;

        Garbage(int mode, long seed) throws IOException {
            this.mode = mode;
            this.r = new SplittableRandom(seed);
            DatagramChannel c = null;
            DatagramChannel d = null;
            for (int attempt = 0; attempt < 32 && d == null; attempt++) {
                c = DatagramChannel.open(StandardProtocolFamily.INET);
                c.bind(new InetSocketAddress(LOOPBACK, 0));
                int p = ((InetSocketAddress) c.getLocalAddress()).getPort();
                try {
                    d = DatagramChannel.open(StandardProtocolFamily.INET);
                    d.bind(new InetSocketAddress(LOOPBACK, p + 1));
                } catch (IOException e) {
                    c.close();
                    if (d != null) {
                        d.close();
                    }
                    d = null;
                }
            }
            if (d == null) {
                throw new IOException("no two free ports in a row on loopback");
            }
            ctl = c;
            data = d;
            ctlThread = Thread.ofPlatform().daemon().name("fuzz-garbage-ctl").start(this::serveControl);
            dataThread = Thread.ofPlatform().daemon().name("fuzz-garbage-data").start(this::serveData);
        }

        int port() throws IOException {
            return ((InetSocketAddress) ctl.getLocalAddress()).getPort();
        }

        String firstExchange() {
            return first == null ? "none" : first;
        }

        private void serveControl() {
            ByteBuffer b = ByteBuffer.allocate(512);
            try {
                while (true) {
                    b.clear();
                    SocketAddress from = ctl.receive(b);
                    b.flip();
                    if (b.remaining() != IbsimWire.CTL_SIZE) {
                        continue;
                    }
                    byte[] m = new byte[IbsimWire.CTL_SIZE];
                    b.get(m);
                    ByteBuffer le = ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN);
                    int type = le.getInt(8);
                    if (type == IbsimWire.TYPE_CONNECT) {
                        int dataPort = le.getInt(16);
                        client = new InetSocketAddress(((InetSocketAddress) from).getAddress(), dataPort);
                        le.putInt(16, 0);                          // slot 0
                        byte[] id = "H-0002c90300000003".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                        java.util.Arrays.fill(m, 28, 60, (byte) 0);
                        System.arraycopy(id, 0, m, 28, id.length);
                    } else if (type != IbsimWire.TYPE_DISCONNECT && mode >= 6) {
                        byte[] junk = new byte[IbsimWire.CTL_DATA_SIZE];
                        synchronized (r) {
                            r.nextBytes(junk);
                        }
                        System.arraycopy(junk, 0, m, 16, junk.length);   // the port's values, garbage
                    }
                    ctl.send(ByteBuffer.wrap(m), from);
                }
            } catch (ClosedChannelException e) {
                // closed
            } catch (IOException e) {
                // the case is over
            }
        }

        private void serveData() {
            ByteBuffer b = ByteBuffer.allocate(4096);
            try {
                while (true) {
                    b.clear();
                    data.receive(b);
                    b.flip();
                    byte[] req = new byte[b.remaining()];
                    b.get(req);
                    SocketAddress to = client;
                    if (to == null || req.length != IbsimWire.REQUEST_SIZE) {
                        continue;
                    }
                    byte[] reply;
                    synchronized (r) {
                        reply = answer(req);
                    }
                    if (first == null) {
                        first = java.util.HexFormat.of().formatHex(req) + " -> " + (reply == null ? "no answer"
                                : java.util.HexFormat.of().formatHex(reply));
                    }
                    if (reply != null) {
                        data.send(ByteBuffer.wrap(reply), to);
                    }
                }
            } catch (ClosedChannelException e) {
                // closed
            } catch (IOException e) {
                // the case is over
            }
        }

        /** Garbage made from a request (a whole ibsim datagram, 288 bytes), or null: no answer. */
        private byte[] answer(byte[] req) {
            byte[] a = req.clone();
            int mad = IbsimWire.MAD_OFFSET;
            a[mad + 3] = (byte) (a[mad + 3] | 0x80);                    // a response
            switch (mode) {
                case 0 -> r.nextBytes(a);                                 // random bytes
                case 1 -> {                                               // the request's header, random data
                    byte[] d = new byte[256 - 24];
                    r.nextBytes(d);
                    System.arraycopy(d, 0, a, mad + 24, d.length);
                }
                case 2 -> {                                               // a few bytes anywhere flipped
                    for (int i = 0; i < 1 + r.nextInt(12); i++) {
                        a[r.nextInt(a.length)] ^= (byte) (1 << r.nextInt(8));
                    }
                }
                case 3 -> {                                               // truncated or oversized
                    return java.util.Arrays.copyOf(a, r.nextBoolean() ? r.nextInt(IbsimWire.REQUEST_SIZE)
                            : IbsimWire.REQUEST_SIZE + 1 + r.nextInt(1024));
                }
                case 4 -> {                                               // an error status, or the bounce
                    ByteBuffer.wrap(a).putShort(mad + 4, (short) r.nextInt(0x10000));
                    if (r.nextBoolean()) {
                        ByteBuffer.wrap(a).putInt(16, IbsimWire.STATUS_TIMEOUT);
                        a[mad + 3] = req[mad + 3];
                    }
                }
                case 5 -> {                                               // a wrong TID now and then, else data
                    if (r.nextInt(3) == 0) {
                        ByteBuffer.wrap(a).putLong(mad + 8, r.nextLong());
                    } else {
                        byte[] d = new byte[192];
                        r.nextBytes(d);
                        System.arraycopy(d, 0, a, mad + 64, d.length);
                    }
                }
                case 6 -> {                                               // every node the same one-port CA
                    ByteBuffer m = ByteBuffer.wrap(a, mad, 256).slice();
                    int attr = m.getShort(16) & 0xffff;
                    m.putShort(4, (short) 0);
                    if ((a[mad + 1] & 0xff) == 0x81) {
                        a[mad + 4] |= (byte) 0x80;
                    }
                    java.util.Arrays.fill(a, mad + 64, mad + 256, (byte) 0);
                    if (attr == 0x0011) {
                        m.put(64, (byte) 1).put(65, (byte) 1).put(66, (byte) 1).put(67, (byte) 1);
                        m.putLong(64 + 4, 0xec0d9a0300ec8480L).putLong(64 + 12, 0xec0d9a0300ec8480L)
                                .putLong(64 + 20, 0xec0d9a0300ec8481L).put(64 + 36, (byte) 1);
                    } else if (attr == 0x0015) {
                        m.putShort(64 + 16, (short) 1).put(64 + 32, (byte) 0x44).put(64 + 33, (byte) 0x50)
                                .put(64 + 36, (byte) 1);
                    }
                }
                case 7 -> {
                    return r.nextInt(4) == 0 ? null : a;                 // some unanswered, the rest echoed
                }
                default -> {                                              // the request's own bytes back
                    return req;
                }
            }
            return a;
        }

        @Override
        public void close() throws IOException {
            ctl.close();
            data.close();
        }
    }
}
