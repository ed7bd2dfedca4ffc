package org.ibtwin.whatif;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.ibtwin.format.FormatException;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Mtu;

/**
 * One change to rehearse, as {@code ibtwin what-if} takes it (an option, or a line of a {@code --changes} file). Node
 * names are kept as given; {@link NodeRef} resolves them against the fabric. Each change says what it is in
 * {@link #describe()}.
 */
public sealed interface Change {
    /** The options, as the command line and a changes file name them (without the leading dashes). */
    List<String> NAMES = List.of("partitions", "pull-cable", "drain-switch", "drain-node", "disable-port",
            "set-link", "routing", "lmc", "kill-sm", "mtu-cap");

    /** How the report names the change: "pull the cable at leaf01/4". */
    String describe();

    /** A new partitions.conf for the SM (reread, then a sweep). */
    record Partitions(PartitionsConf conf) implements Change {
        @Override
        public String describe() {
            return "partitions " + conf.file();
        }
    }

    /** The cable at a port pulled out (both ends, {@code other} when the user named the far end too). */
    record PullCable(String node, int port, String otherNode, int otherPort) implements Change {
        @Override
        public String describe() {
            return "pull the cable at " + node + "/" + port + (otherNode == null ? "" : " <-> " + otherNode + "/"
                    + otherPort);
        }
    }

    /** Every link of a switch down. */
    record DrainSwitch(String node) implements Change {
        @Override
        public String describe() {
            return "drain switch " + node;
        }
    }

    /** Every link of a node (a host: its HCA's ports) down. */
    record DrainNode(String node) implements Change {
        @Override
        public String describe() {
            return "drain node " + node;
        }
    }

    /** A port disabled (as ibportstate disable leaves it). */
    record DisablePort(String node, int port) implements Change {
        @Override
        public String describe() {
            return "disable port " + node + "/" + port;
        }
    }

    /** The link at a port trained again at most at this width and speed (null: as it is). */
    record SetLink(String node, int port, LinkWidth width, LinkSpeed speed) implements Change {
        @Override
        public String describe() {
            return "set link " + node + "/" + port + (width == null ? "" : " width=" + width.label())
                    + (speed == null ? "" : " speed=" + speed.name());
        }
    }

    /** The SM restarted with another routing engine chain. */
    record Routing(String engines) implements Change {
        @Override
        public String describe() {
            return "routing " + engines;
        }
    }

    /** The SM restarted with another LMC. */
    record Lmc(int lmc) implements Change {
        @Override
        public String describe() {
            return "LMC " + lmc;
        }
    }

    /** An SM killed: the one at {@code node} (null: the master). */
    record KillSm(String node) implements Change {
        @Override
        public String describe() {
            return node == null ? "kill the master SM" : "kill the SM at " + node;
        }
    }

    /** Every port's MTU capability capped at this MTU. */
    record MtuCap(Mtu mtu) implements Change {
        @Override
        public String describe() {
            return "MTU cap " + mtu.bytes();
        }
    }

    /**
     * The change option {@code name} (without dashes) with its value (null for {@code kill-sm} without a node),
     * {@code where} naming the place in a bad-value message ("--pull-cable", "changes.txt:3").
     *
     * @throws IllegalArgumentException (one line) for a bad value or an unknown name
     * @throws FormatException for a partitions file that does not parse
     */
    static Change parse(String name, String value, String where, Path base) {
        String v = value == null ? null : value.strip();
        if (v != null && v.isEmpty() && !name.equals("kill-sm")) {
            throw new IllegalArgumentException(where + ": --" + name + " needs a value");
        }
        switch (name) {
            case "partitions" -> {
                Path p = base == null ? Path.of(v) : base.resolve(v);
                return new Partitions(PartitionsConf.read(p));
            }
            case "pull-cable" -> {
                String[] ends = v.split("\\s*(<->|,|\\s)\\s*");
                int[] a = portOf(ends[0], where, name);
                if (ends.length > 2) {
                    throw new IllegalArgumentException(where + ": --pull-cable takes NODE/PORT or both ends, not \""
                            + v + "\"");
                }
                if (ends.length == 2) {
                    int[] b = portOf(ends[1], where, name);
                    return new PullCable(nodeOf(ends[0]), a[0], nodeOf(ends[1]), b[0]);
                }
                return new PullCable(nodeOf(ends[0]), a[0], null, 0);
            }
            case "drain-switch" -> {
                return new DrainSwitch(v);
            }
            case "drain-node" -> {
                return new DrainNode(v);
            }
            case "disable-port" -> {
                return new DisablePort(nodeOf(v), portOf(v, where, name)[0]);
            }
            case "set-link" -> {
                String[] w = v.split("\\s+");
                LinkWidth width = null;
                LinkSpeed speed = null;
                for (int i = 1; i < w.length; i++) {
                    String[] kv = w[i].split("=", 2);
                    if (kv.length != 2) {
                        throw new IllegalArgumentException(where + ": --set-link: \"" + w[i]
                                + "\" is not width=... or speed=...");
                    }
                    switch (kv[0].toLowerCase(Locale.ROOT)) {
                        case "width" -> {
                            width = LinkWidth.parse(kv[1]);
                            if (width == null) {
                                throw new IllegalArgumentException(where + ": --set-link: unknown width \"" + kv[1]
                                        + "\" (1x, 2x, 4x, 8x, 12x)");
                            }
                        }
                        case "speed" -> {
                            speed = LinkSpeed.parse(kv[1]);
                            if (speed == null) {
                                throw new IllegalArgumentException(where + ": --set-link: unknown speed \"" + kv[1]
                                        + "\" (SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR, XDR)");
                            }
                        }
                        default -> throw new IllegalArgumentException(where + ": --set-link: unknown field \""
                                + kv[0] + "\" (width=..., speed=...)");
                    }
                }
                if (width == null && speed == null) {
                    throw new IllegalArgumentException(where + ": --set-link NODE/PORT needs width=... and/or "
                            + "speed=...");
                }
                return new SetLink(nodeOf(w[0]), portOf(w[0], where, name)[0], width, speed);
            }
            case "routing" -> {
                return new Routing(v);
            }
            case "lmc" -> {
                int l;
                try {
                    l = Integer.parseInt(v);
                } catch (NumberFormatException e) {
                    l = -1;
                }
                if (l < 0 || l > 7) {
                    throw new IllegalArgumentException(where + ": --lmc must be 0..7, not \"" + v + "\"");
                }
                return new Lmc(l);
            }
            case "kill-sm" -> {
                return new KillSm(v == null || v.isEmpty() ? null : v);
            }
            case "mtu-cap" -> {
                Mtu m = null;
                try {
                    m = Mtu.ofBytes(Integer.parseInt(v));
                } catch (NumberFormatException e) {
                    m = null;
                }
                if (m == null) {
                    throw new IllegalArgumentException(where + ": --mtu-cap must be 256, 512, 1024, 2048 or 4096, "
                            + "not \"" + v + "\"");
                }
                return new MtuCap(m);
            }
            default -> throw new IllegalArgumentException(where + ": unknown change \"" + name + "\" (one of --"
                    + String.join(", --", NAMES) + ")");
        }
    }

    private static String nodeOf(String nodePort) {
        int slash = nodePort.lastIndexOf('/');
        return nodePort.substring(0, slash);
    }

    private static int[] portOf(String nodePort, String where, String name) {
        int slash = nodePort.lastIndexOf('/');
        if (slash <= 0 || slash == nodePort.length() - 1) {
            throw new IllegalArgumentException(where + ": --" + name + " takes NODE/PORT, not \"" + nodePort + "\"");
        }
        try {
            int p = Integer.parseInt(nodePort.substring(slash + 1));
            if (p < 0 || p > 254) {
                throw new NumberFormatException();
            }
            return new int[] {p};
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + ": --" + name + ": \"" + nodePort.substring(slash + 1)
                    + "\" is not a port number");
        }
    }
}
