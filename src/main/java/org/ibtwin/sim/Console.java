package org.ibtwin.sim;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Serial;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.ibtwin.format.FormatException;
import org.ibtwin.format.TextFiles;
import org.ibtwin.mad.Dumps;
import org.ibtwin.mad.PerfAttributes;
import org.ibtwin.mad.PortId;
import org.ibtwin.model.Cable;
import org.ibtwin.model.LinkLayer;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Node;
import org.ibtwin.model.PortCounter;
import org.ibtwin.model.PortState;

/**
 * The simulator console of {@code ibtwin sim}: ibsim's console commands where they overlap, with their syntax
 * ({@code Link "nodeid"[port] "remoteid"[port]}, {@code Unlink "nodeid"[port]}, {@code ReLink}, {@code Error},
 * {@code PerformanceSet}, {@code Route}, {@code Dump}, {@code Attached}, {@code X}, {@code Wait}, {@code Help},
 * {@code Quit}, {@code !file}, {@code #} comments; command names in any case), and ibtwin's own faults
 * ({@code flap}, {@code cable}, {@code down}, {@code up}, {@code reboot}, {@code ethernet}, {@code infiniband},
 * {@code kill-sm}) and views ({@code clients}, {@code counters}, {@code traps}), and {@code source <file>}.
 *
 * <p>A node is named as ibsim names it, by its topology id ({@code "S-0002c9…"}, {@code "Hca1"}), or by its node
 * description or host name (the description's first word: {@code node017}); quotes are needed only around names
 * with spaces. A port is {@code "name"[port]} as in ibsim, or {@code name port} in ibtwin's own commands.
 *
 * <p>A bad line is one line of explanation ({@link CommandException}) and changes nothing; the interactive console
 * prints it and goes on. A script stops at its first bad line with {@code file:line: message}
 * ({@link ScriptException}); a script run from a script resolves its path against the including one's directory.
 */
public final class Console {
    public static final String PROMPT = "sim> ";
    private static final int MAX_DEPTH = 16;
    /** The longest {@code Wait}: an hour (a longer one is a typo, and would hang a script for ever). */
    static final long MAX_WAIT_SECONDS = 3600;

    /** A console line that cannot be run: what is wrong, in one line. */
    public static class CommandException extends RuntimeException {
        @Serial
        private static final long serialVersionUID = 1L;

        public CommandException(String message) {
            super(message);
        }
    }

    /** A script stopped at a bad line: the message is {@code file:line: what is wrong}. */
    public static final class ScriptException extends CommandException {
        @Serial
        private static final long serialVersionUID = 1L;

        public ScriptException(String message) {
            super(message);
        }
    }

    /** A word of a console line; {@code port} is its {@code [n]} suffix, or null. */
    record Word(String text, Integer port, boolean quoted) {
        boolean isNumber() {
            return !quoted && port == null && parseNumber(text) != null;
        }
    }

    /**
     * A console command from above the twin (the traffic engine, an SM), registered by whoever assembles the fabric:
     * the twin's package cannot know them.
     */
    public interface Command {
        /**
         * Runs the command with its words (quotes removed, a {@code [n]} suffix kept as written).
         *
         * @throws IllegalArgumentException for a bad line: printed as one line, nothing changed
         */
        void run(List<String> args, PrintWriter out);

        /** The command's lines for Help: {@code "  traffic start PATTERN   ..."}. */
        List<String> help();
    }

    private final Twin twin;
    private final IbsimServer server;
    private final PrintWriter out;
    private final java.util.Map<String, Command> commands = new java.util.LinkedHashMap<>();
    private Path base = Path.of("");
    private int depth;
    private final List<java.util.function.Consumer<String>> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * @param twin   the fabric the commands act on
     * @param server the ibsim endpoint ({@code clients}, {@code X}, {@code kill-sm}); null when there is none
     * @param out    where the console writes
     */
    public Console(Twin twin, IbsimServer server, PrintWriter out) {
        this.twin = Objects.requireNonNull(twin, "twin");
        this.server = server;
        this.out = Objects.requireNonNull(out, "out");
    }

    /**
     * Tells {@code listener} every command line the console ran without an error (not blank lines, comments, Help
     * or Quit): a web view's event log shows the faults it injected.
     */
    public void onCommand(java.util.function.Consumer<String> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** Adds a command (its name in any case); a name the console has already is refused. */
    public void register(String name, Command command) {
        String key = name.toLowerCase(Locale.ROOT);
        if (commands.containsKey(key)) {
            throw new IllegalArgumentException("console command \"" + name + "\" is registered already");
        }
        commands.put(key, Objects.requireNonNull(command, "command"));
    }

    // =====================================================================================================
    // running

    /** Reads lines until Quit or the end of input, prompting; a bad line is printed as one line. */
    public void run(BufferedReader in) throws IOException {
        prompt();
        String line;
        while ((line = in.readLine()) != null) {
            try {
                if (!execute(line)) {
                    return;
                }
            } catch (CommandException e) {
                out.println(e instanceof ScriptException ? e.getMessage() : "error: " + e.getMessage());
            }
            prompt();
        }
        out.println();
        out.flush();
    }

    private void prompt() {
        out.print(PROMPT);
        out.flush();
    }

    /**
     * Runs a script: every line as at the console.
     *
     * @return false when it ran Quit
     * @throws ScriptException at its first bad line (or when it cannot be read), as {@code file:line: message}
     */
    public boolean runScript(Path file) {
        Path p = base.resolve(file);
        // a script that cannot be run, named by a line of another script, is that line's error: the outer
        // script's file:line goes before it (a CommandException, which the outer loop prefixes)
        if (depth >= MAX_DEPTH) {
            throw new CommandException(file + ": scripts nested more than " + MAX_DEPTH + " deep");
        }
        List<String> lines;
        try {
            lines = TextFiles.read(p, file.toString()).lines().toList();
        } catch (FormatException e) {
            throw depth > 0 ? new CommandException(e.getMessage()) : new ScriptException(e.getMessage());
        }
        Path saved = base;
        depth++;
        base = p.toAbsolutePath().getParent();
        try {
            for (int i = 0; i < lines.size(); i++) {
                try {
                    if (!execute(lines.get(i))) {
                        return false;
                    }
                } catch (ScriptException e) {
                    throw e;
                } catch (CommandException e) {
                    throw new ScriptException(file + ":" + (i + 1) + ": " + e.getMessage());
                }
            }
            return true;
        } finally {
            base = saved;
            depth--;
            out.flush();
        }
    }

    /**
     * Runs one console line.
     *
     * @return false for Quit
     * @throws CommandException for a line that cannot be run (it changed nothing)
     */
    public boolean execute(String line) {
        String s = line.strip();
        if (s.isEmpty() || s.startsWith("#")) {
            return true;
        }
        if (s.startsWith("!")) {
            String file = s.substring(1).strip();
            if (file.isEmpty()) {
                throw new CommandException("! needs a file name");
            }
            return runScript(Path.of(file));
        }
        List<Word> words = split(s);
        String cmd = words.getFirst().text().toLowerCase(Locale.ROOT);
        List<Word> args = words.subList(1, words.size());
        try {
            switch (cmd) {
                case "help", "?" -> help();
                case "quit", "exit" -> {
                    return false;
                }
                case "dump" -> dump(args);
                case "route" -> route(args);
                case "link" -> link(args);
                case "unlink" -> unlink(args);
                case "relink" -> relink(args);
                case "error" -> error(args);
                case "performanceset" -> performanceSet(s, args);
                case "wait" -> waitSeconds(args);
                case "attached", "clients" -> clients(args);
                case "x" -> disconnect(args);
                case "flap" -> flap(args);
                case "cable" -> cable(args);
                case "down" -> down(args);
                case "up" -> up(args);
                case "reboot" -> reboot(args);
                case "ethernet" -> linkLayer(args, LinkLayer.ETHERNET);
                case "infiniband" -> linkLayer(args, LinkLayer.INFINIBAND);
                case "kill-sm" -> killSm(args);
                case "counters" -> counters(args);
                case "traps" -> traps(args);
                case "source" -> {
                    expect(args, 1, 1, "source <file>");
                    return runScript(Path.of(args.getFirst().text()));
                }
                default -> {
                    Command c = commands.get(cmd);
                    if (c == null) {
                        throw new CommandException("unknown command \"" + words.getFirst().text()
                                + "\" (Help lists the commands)");
                    }
                    List<String> texts = new ArrayList<>(args.size());
                    for (Word w : args) {
                        texts.add(w.port() == null ? w.text() : w.text() + "[" + w.port() + "]");
                    }
                    c.run(texts, out);
                }
            }
            if (!cmd.equals("help") && !cmd.equals("?")) {
                for (java.util.function.Consumer<String> l : listeners) {
                    l.accept(s);
                }
            }
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new CommandException(e.getMessage());
        } finally {
            out.flush();
        }
        return true;
    }

    // =====================================================================================================
    // parsing

    /** Splits a line into words: blanks separate them, double quotes keep blanks in, {@code [n]} names a port. */
    static List<Word> split(String line) {
        List<Word> words = new ArrayList<>();
        int i = 0;
        int n = line.length();
        while (i < n) {
            char c = line.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            String text;
            boolean quoted = c == '"';
            if (quoted) {
                int end = line.indexOf('"', i + 1);
                if (end < 0) {
                    throw new CommandException("unclosed quote: " + line.substring(i));
                }
                text = line.substring(i + 1, end);
                i = end + 1;
            } else {
                int start = i;
                while (i < n && !Character.isWhitespace(line.charAt(i)) && line.charAt(i) != '['
                        && line.charAt(i) != '"') {
                    i++;
                }
                text = line.substring(start, i);
            }
            Integer port = null;
            if (i < n && line.charAt(i) == '[') {
                int end = line.indexOf(']', i);
                if (end < 0) {
                    throw new CommandException("missing ']' after \"" + text + "\"[");
                }
                Long v = parseNumber(line.substring(i + 1, end).strip());
                if (v == null || v < 0 || v > 255) {
                    throw new CommandException("bad port \"" + line.substring(i, end + 1) + "\" of \"" + text + "\"");
                }
                port = v.intValue();
                i = end + 1;
            }
            if (i < n && !Character.isWhitespace(line.charAt(i))) {
                throw new CommandException("unexpected '" + line.charAt(i) + "' after \"" + text + "\"");
            }
            words.add(new Word(text, port, quoted));
        }
        return words;
    }

    /** A decimal or 0x-hex number, or null. */
    static Long parseNumber(String s) {
        try {
            if (s.startsWith("0x") || s.startsWith("0X")) {
                return Long.parseLong(s.substring(2), 16);
            }
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static long number(Word w, String what) {
        Long v = w.port() == null && !w.quoted() ? parseNumber(w.text()) : null;
        if (v == null) {
            throw new CommandException(what + " is not a number: \"" + w.text() + "\"");
        }
        return v;
    }

    private static void expect(List<Word> args, int min, int max, String usage) {
        if (args.size() < min || args.size() > max) {
            throw new CommandException("usage: " + usage);
        }
    }

    /** A port given as "name"[port] (one word) or name port (two); returns the words it took. */
    private record PortRef(String node, int port, int words) {
    }

    private static PortRef portRef(List<Word> args, int i, String usage) {
        if (i >= args.size()) {
            throw new CommandException("usage: " + usage);
        }
        Word w = args.get(i);
        if (w.port() != null) {
            return new PortRef(w.text(), w.port(), 1);
        }
        if (i + 1 >= args.size() || !args.get(i + 1).isNumber()) {
            throw new CommandException("no port for \"" + w.text() + "\" (usage: " + usage + ")");
        }
        long p = number(args.get(i + 1), "port");
        if (p > 255) {
            throw new CommandException("bad port " + p + " of \"" + w.text() + "\"");
        }
        return new PortRef(w.text(), (int) p, 2);
    }

    private Node node(String name) {
        if (name.isEmpty()) {
            throw new CommandException("empty node name");
        }
        return twin.node(name);
    }

    // =====================================================================================================
    // ibsim's commands

    private void help() {
        out.println("Commands (names in any case; a port is \"node\"[port], or node port in ibtwin's own):");
        out.println("  Dump [\"node\"]                      the nodes and their ports; one node: its LFT too");
        out.println("  Route <from-lid> <to-lid>           follow the LFTs from one LID to another");
        out.println("  Link \"node\"[port] \"node\"[port]      cable two free ports");
        out.println("  Unlink \"node\"[port] | \"node\"        pull a cable out (all of a node's)");
        out.println("  ReLink \"node\"[port] | \"node\"        plug pulled cables back in");
        out.println("  Error \"node\"[port] <0..100> [attr]  drop MADs arriving there (% chance; one attribute id)");
        out.println("  PerformanceSet \"node\"[port] PortCounters.<field>=<value>   set a counter (also");
        out.println("                                      PortCountersExtended.<field>)");
        out.println("  Attached | clients                  the ibsim endpoint's clients");
        out.println("  X <client>                          disconnect a client");
        out.println("  Wait <seconds>                      pause, 1..3600 s (in scripts)");
        out.println("  flap <node> <port> [n]              the link goes down and up n times (default 1)");
        out.println("  cable <node> <port> <speed> <width> replug with a cable rated so (e.g. DDR 4x)");
        out.println("  down <node> <port> | up <node> <port>   a port fails / recovers");
        out.println("  reboot <switch>                     the switch loses LID, LFT, MFT and trains again");
        out.println("  ethernet <node> <port> | infiniband <node> <port>   the port's link layer");
        out.println("  kill-sm [node]                      SM processes die (all, or at a node)");
        out.println("  counters <node> <port>              the port's PortCounters, as perfquery prints them");
        out.println("  traps                               traps sent and not yet repressed");
        out.println("  source <file> | !<file>             run commands from a file");
        for (Command c : commands.values()) {
            for (String l : c.help()) {
                out.println(l);
            }
        }
        out.println("  # ...                               a comment");
        out.println("  Help | ?");
        out.println("  Quit");
    }

    private void dump(List<Word> args) {
        expect(args, 0, 1, "Dump [\"node\"]");
        List<NodeDump> nodes;
        if (args.isEmpty()) {
            nodes = twin.dump();
        } else {
            String name = args.getFirst().text();
            node(name);
            nodes = List.of(twin.dump(name));
        }
        for (NodeDump n : nodes) {
            dumpNode(n);
        }
        out.printf("#  dumped %d nodes%n", nodes.size());
    }

    private void dumpNode(NodeDump d) {
        Node node = d.node();
        boolean sw = d.isSwitch();
        out.printf("%n%s %d \"%s\"\tnodeguid %x\tsysimgguid %x\t# \"%s\"%n", sw ? "Switch" : "Hca", node.numPorts(),
                node.name(), node.guid(), node.systemImageGuid(), node.description());
        if (sw) {
            out.printf("#\tlinearcap %d FDBtop %d portchange %d%n", d.linearFdbCap(), d.fdbTop(),
                    d.portStateChange() ? 1 : 0);
            int[] t = d.lft();
            if (t != null) {
                int top = d.fdbTop();
                for (int i = 0; i <= top; i += 16) {
                    StringBuilder b = new StringBuilder();
                    int end = Math.min(i + 16, top + 1);
                    for (int j = i; j < end; j++) {
                        b.append(String.format(" [%d]%X", j, t[j]));
                    }
                    out.printf("#\tForwarding table %d-%d:%s%n", i, end - 1, b);
                }
            }
        }
        for (NodeDump.PortDump p : d.ports()) {
            dumpPort(p, sw);
        }
    }

    private void dumpPort(NodeDump.PortDump d, boolean sw) {
        int p = d.number();
        StringBuilder line = new StringBuilder(String.format("%x\t[%d]\t", d.guid(), p));
        if (sw && p == 0) {
            line.append("\"Sma Port\"[0]");
        } else if (d.remoteNode() != null && d.state() != PortState.DOWN) {
            line.append('"').append(d.remoteNode()).append("\"[").append(d.remotePort()).append(']');
        } else {
            line.append('\t');
        }
        LinkWidth w = d.width();
        LinkSpeed sp = d.speed();
        String rate = (w == null ? "-" : w.label()) + " " + (sp == null ? "-" : sp.label());
        String st = stateLabel(d.state().code()) + "/" + physLabel(d.phys().code());
        if (!sw || p == 0) {
            line.append(String.format("\t lid %d lmc %d smlid %d %s %s", d.lid(), d.lmc(), d.smLid(), rate, st));
        } else {
            line.append(String.format("\t %s %s", rate, st));
        }
        if (d.held()) {
            line.append("\t# held down");
        }
        if (d.ethernet()) {
            line.append("\t# ethernet");
        }
        if (d.unpluggedFrom() != null) {
            line.append("\t# unplugged from ").append(d.unpluggedFrom());
        }
        out.println(line);
    }

    private static String stateLabel(int code) {
        return switch (code) {
            case 1 -> "Down";
            case 2 -> "Init";
            case 3 -> "Armed";
            case 4 -> "Active";
            default -> "?";
        };
    }

    private static String physLabel(int code) {
        return switch (code) {
            case 1 -> "Sleep";
            case 2 -> "Polling";
            case 3 -> "Disabled";
            case 4 -> "Training";
            case 5 -> "LinkUp";
            case 6 -> "ErrorRecovery";
            default -> "?";
        };
    }

    /** ibsim's Route: follows the LFTs over Active ports from one LID's port to another's. */
    private void route(List<Word> args) {
        if (args.size() != 2) {
            throw new CommandException("bad params. Usage: route from-lid lid");
        }
        Long from = args.get(0).isNumber() ? parseNumber(args.get(0).text()) : null;
        Long to = args.get(1).isNumber() ? parseNumber(args.get(1).text()) : null;
        if (from == null || to == null || from <= 0 || to <= 0 || from >= Dumps.MCAST_LID_BASE
                || to >= Dumps.MCAST_LID_BASE) {
            throw new CommandException("bad lid value. Usage: route from-lid to-lid");
        }
        RouteTrace r = twin.routeTrace(from.intValue(), to.intValue());
        if (r == null) {
            throw new CommandException("to/from lid unconfigured. Usage: route from-lid to-lid");
        }
        out.printf("From node \"%s\" port %d lid %d%n", r.fromNode(), r.fromPort(), from);
        for (RouteTrace.Hop h : r.hops()) {
            out.printf("[%d] -> \"%s\"[%d]%n", h.outPort(), h.node(), h.port());
        }
        if (r.failure() != null) {
            throw new CommandException(r.failure());
        }
        out.printf("To node \"%s\" port %d lid %d%n", r.toNode(), r.toPort(), to);
    }

    private void link(List<Word> args) {
        String usage = "Link \"nodeid\"[port] \"remoteid\"[port]";
        PortRef a = portRef(args, 0, usage);
        PortRef b = portRef(args, a.words(), usage);
        expect(args, a.words() + b.words(), a.words() + b.words(), usage);
        LinkStatus s = twin.link(a.node(), a.port(), b.node(), b.port(), null);
        out.printf("\"%s\"[%d] <-> \"%s\"[%d]: %s%n", a.node(), a.port(), b.node(), b.port(), s);
    }

    /** "node"[port], "node" port, or "node" alone (all its ports): the port, or -1 for all. */
    private PortRef nodeOrPort(List<Word> args, String usage) {
        if (args.isEmpty() || args.size() > 2) {
            throw new CommandException("usage: " + usage);
        }
        Word w = args.getFirst();
        if (args.size() == 1 && w.port() == null) {
            node(w.text());
            return new PortRef(w.text(), -1, 1);
        }
        PortRef r = portRef(args, 0, usage);
        expect(args, r.words(), r.words(), usage);
        return r;
    }

    private void unlink(List<Word> args) {
        PortRef r = nodeOrPort(args, "Unlink \"nodeid\"[port] | Unlink \"nodeid\"");
        if (r.port() < 0) {
            out.printf("unlinked %d ports of \"%s\"%n", twin.unplugAll(r.node()), r.node());
        } else {
            twin.unplug(r.node(), r.port());
            out.printf("unlinked \"%s\"[%d]%n", r.node(), r.port());
        }
    }

    private void relink(List<Word> args) {
        PortRef r = nodeOrPort(args, "ReLink \"nodeid\"[port] | ReLink \"nodeid\"");
        if (r.port() < 0) {
            out.printf("relinked %d ports of \"%s\"%n", twin.replugAll(r.node()), r.node());
        } else {
            LinkStatus s = twin.replug(r.node(), r.port());
            out.printf("relinked \"%s\"[%d] <-> \"%s\"[%d]: %s%n", r.node(), r.port(), s.remoteNode(),
                    s.remotePort(), s);
        }
    }

    /** ibsim's Error: one rate (and optionally one attribute) a port, replacing what the port had. */
    private void error(List<Word> args) {
        String usage = "Error \"nodeid\"[port] <error-rate> [attribute]";
        if (args.size() < 2 || args.size() > 3) {
            throw new CommandException("usage: " + usage);
        }
        Word w = args.getFirst();
        Node n = node(w.text());
        long rate = number(args.get(1), "error rate");
        if (rate > 100) {
            throw new CommandException("error rate must be in [0..100] range (" + rate + ")");
        }
        long attr = args.size() == 3 ? number(args.get(2), "attribute") : 0;
        if (attr > 0xffff) {
            throw new CommandException("attribute id must be in 0..0xffff: " + attr);
        }
        int first = n.isSwitch() ? 0 : 1;
        int last = n.numPorts();
        if (w.port() != null) {
            if (w.port() < first || w.port() > last) {
                throw new CommandException("bad port number " + w.port() + " at nodeid \"" + w.text() + "\"");
            }
            first = w.port();
            last = w.port();
        }
        for (int p = first; p <= last; p++) {
            twin.clearDropRates(w.text(), p);
            if (rate > 0) {
                twin.setDropRate(w.text(), p, (int) attr, rate / 100.0);
            }
        }
        out.printf("error rate %d%%%s at %d port%s of \"%s\"%n", rate,
                attr == 0 ? "" : String.format(" for attribute 0x%04x", attr), last - first + 1,
                last == first ? "" : "s", w.text());
    }

    /** ibsim's PerformanceSet "node"[port] Attribute.Field=value. */
    private void performanceSet(String line, List<Word> args) {
        String usage = "PerformanceSet \"nodeid\"[port] [attribute].[field]=[value]";
        if (args.size() != 2 || args.getFirst().port() == null) {
            throw new CommandException("command does not match: " + usage);
        }
        Word w = args.getFirst();
        Node n = node(w.text());
        int port = w.port();
        if (port > n.numPorts() || (!n.isSwitch() && port == 0)) {
            throw new CommandException("bad port number " + port + " at nodeid \"" + w.text() + "\"");
        }
        if (n.isSwitch() && port == 0 && !n.enhancedPort0()) {
            throw new CommandException("Can't set performance counters of base switch port 0");
        }
        String spec = args.get(1).text();
        int dot = spec.indexOf('.');
        int eq = spec.indexOf('=');
        if (dot < 0 || eq < dot) {
            throw new CommandException("command does not match: " + usage);
        }
        String attr = spec.substring(0, dot);
        String field = spec.substring(dot + 1, eq).strip();
        String value = spec.substring(eq + 1).strip();
        BigInteger v;
        try {
            v = value.startsWith("0x") || value.startsWith("0X") ? new BigInteger(value.substring(2), 16)
                    : new BigInteger(value);
        } catch (NumberFormatException e) {
            throw new CommandException("value '" + value + "' is not valid integer");
        }
        if (v.signum() < 0 || v.bitLength() > 64) {
            throw new CommandException("value '" + value + "' is out of range [0,18446744073709551615]");
        }
        String set;
        if (attr.equalsIgnoreCase("PortCounters")) {
            PortCounter c = null;
            for (PortCounter pc : PortCounter.values()) {
                if (pc.fieldName().equalsIgnoreCase(field)) {
                    c = pc;
                }
            }
            if (c == null) {
                throw new CommandException("field " + field + " cannot be found in attribute " + attr);
            }
            long stored = v.min(BigInteger.valueOf(c.max())).longValue();
            twin.setCounter(w.text(), port, c, stored);
            set = Long.toString(stored);
        } else if (attr.equalsIgnoreCase("PortCountersExtended")) {
            ExtCounter c = switch (field.toLowerCase(Locale.ROOT)) {
                case "portxmitdata" -> ExtCounter.XMIT_DATA;
                case "portrcvdata" -> ExtCounter.RCV_DATA;
                case "portxmitpkts" -> ExtCounter.XMIT_PKTS;
                case "portrcvpkts" -> ExtCounter.RCV_PKTS;
                case "portunicastxmitpkts" -> ExtCounter.UNICAST_XMIT_PKTS;
                case "portunicastrcvpkts" -> ExtCounter.UNICAST_RCV_PKTS;
                case "portmulticastxmitpkts" -> ExtCounter.MULTICAST_XMIT_PKTS;
                case "portmulticastrcvpkts" -> ExtCounter.MULTICAST_RCV_PKTS;
                default -> throw new CommandException("field " + field + " cannot be found in attribute " + attr);
            };
            twin.setExtendedCounter(w.text(), port, c, v.longValue());
            set = v.toString();
        } else if (attr.matches("(?i)PortRcvErrorDetails|PortXmitDiscardDetails|PortOpRcvCounters"
                + "|PortFlowCtlCounters|PortVLOpPackets|PortVLOpData|PortVLXmitFlowCtlUpdateErrors"
                + "|PortVLXmitWaitCounters")) {
            throw new CommandException("attribute " + attr + " is not kept by the twin (PortCounters and "
                    + "PortCountersExtended are)");
        } else {
            throw new CommandException("attribute " + attr + " not found");
        }
        out.printf("%s[%d] %s.%s has been set to %s%n", n.name(), port, attr, field, set);
    }

    private void waitSeconds(List<Word> args) {
        expect(args, 1, 1, "Wait <sec>");
        long sec = number(args.getFirst(), "wait");
        if (sec <= 0 || sec > MAX_WAIT_SECONDS) {
            throw new CommandException("wait: bad param " + sec + " (1.." + MAX_WAIT_SECONDS + " seconds)");
        }
        try {
            Thread.sleep(sec * 1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandException("wait interrupted");
        }
    }

    private void clients(List<Word> args) {
        expect(args, 0, 0, "clients");
        if (server == null) {
            out.println("no ibsim endpoint");
            return;
        }
        List<IbsimServer.Client> cs = server.clients();
        if (cs.isEmpty()) {
            out.println("no clients");
        }
        cs.forEach(out::println);
    }

    private void disconnect(List<Word> args) {
        expect(args, 1, 1, "X <client num>");
        long id = number(args.getFirst(), "client");
        if (server == null || id > Integer.MAX_VALUE || !server.disconnect((int) id)) {
            throw new CommandException("disconnect client: bad clientid " + id);
        }
        out.printf("client %d disconnected%n", id);
    }

    // =====================================================================================================
    // ibtwin's own

    private void flap(List<Word> args) {
        String usage = "flap <node> <port> [n]";
        PortRef r = portRef(args, 0, usage);
        expect(args, r.words(), r.words() + 1, usage);
        long times = args.size() > r.words() ? number(args.get(r.words()), "flap count") : 1;
        if (times < 1 || times > 1_000_000) {
            throw new CommandException("flap count must be in 1..1000000: " + times);
        }
        twin.flap(r.node(), r.port(), (int) times);
        out.printf("flapped \"%s\"[%d] %d time%s: %s, LinkDowned %d%n", r.node(), r.port(), times,
                times == 1 ? "" : "s", twin.linkStatus(r.node(), r.port()),
                twin.counter(r.node(), r.port(), PortCounter.LINK_DOWNED));
    }

    private void cable(List<Word> args) {
        String usage = "cable <node> <port> <speed> <width>";
        PortRef r = portRef(args, 0, usage);
        expect(args, r.words() + 2, r.words() + 2, usage);
        String sp = args.get(r.words()).text();
        String wd = args.get(r.words() + 1).text();
        LinkSpeed speed = LinkSpeed.parse(sp);
        if (speed == null) {
            throw new CommandException("unknown speed \"" + sp + "\" (SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR, XDR)");
        }
        LinkWidth width = LinkWidth.parse(wd);
        if (width == null) {
            throw new CommandException("unknown width \"" + wd + "\" (1x, 2x, 4x, 8x, 12x)");
        }
        LinkStatus before = twin.linkStatus(r.node(), r.port());
        Cable old = before.cable() != null ? before.cable() : twin.lastCable(r.node(), r.port());
        Cable c = (old != null ? old : Cable.UNRATED).withMaxSpeed(speed).withMaxWidth(width);
        LinkStatus s = twin.replug(r.node(), r.port(), c);
        out.printf("\"%s\"[%d] <-> \"%s\"[%d] replugged with a %s%s cable: %s%n", r.node(), r.port(),
                s.remoteNode(), s.remotePort(), width.label(), speed.label(), s);
    }

    private void down(List<Word> args) {
        PortRef r = portRef(args, 0, "down <node> <port>");
        expect(args, r.words(), r.words(), "down <node> <port>");
        twin.linkDown(r.node(), r.port());
        out.printf("\"%s\"[%d] down%n", r.node(), r.port());
    }

    private void up(List<Word> args) {
        PortRef r = portRef(args, 0, "up <node> <port>");
        expect(args, r.words(), r.words(), "up <node> <port>");
        twin.linkUp(r.node(), r.port());
        out.printf("\"%s\"[%d]: %s%n", r.node(), r.port(), twin.linkStatus(r.node(), r.port()));
    }

    private void reboot(List<Word> args) {
        expect(args, 1, 1, "reboot <switch>");
        String name = args.getFirst().text();
        twin.rebootSwitch(name);
        out.printf("\"%s\" rebooted: LID 0, tables empty, links training%n", name);
    }

    private void linkLayer(List<Word> args, LinkLayer layer) {
        String usage = (layer == LinkLayer.ETHERNET ? "ethernet" : "infiniband") + " <node> <port>";
        PortRef r = portRef(args, 0, usage);
        expect(args, r.words(), r.words(), usage);
        twin.setLinkLayer(r.node(), r.port(), layer);
        out.printf("\"%s\"[%d] runs %s: %s%n", r.node(), r.port(), layer.label(),
                twin.linkStatus(r.node(), r.port()));
    }

    private void killSm(List<Word> args) {
        expect(args, 0, 1, "kill-sm [node]");
        Node at = args.isEmpty() ? null : node(args.getFirst().text());
        int killed = 0;
        List<String> where = new ArrayList<>();
        for (Attachment a : twin.smAttachments()) {
            if (at == null || twin.node(a.nodeName()) == at) {
                twin.kill(a);
                where.add(a.nodeName());
                killed++;
            }
        }
        if (server != null) {
            // the dead process's slot goes too: what it still sends reaches nobody
            for (IbsimServer.Client c : server.clients()) {
                if (c.sm() && where.contains(c.nodeName())) {
                    server.disconnect(c.slot());
                }
            }
        }
        if (killed == 0) {
            throw new CommandException(at == null ? "no SM is attached" : "no SM is attached at \""
                    + args.getFirst().text() + "\"");
        }
        out.printf("killed %d SM%s (%s)%n", killed, killed == 1 ? "" : "s", String.join(", ", where));
    }

    private void counters(List<Word> args) {
        String usage = "counters <node> <port>";
        PortRef r = portRef(args, 0, usage);
        expect(args, r.words(), r.words(), usage);
        Node n = node(r.node());
        if (r.port() > n.numPorts() || (!n.isSwitch() && r.port() == 0)) {
            throw new CommandException("node \"" + r.node() + "\" has no port " + r.port());
        }
        byte[] data = twin.portCounters(r.node(), r.port());
        int cap = PerfAttributes.CAP_EXT_WIDTH_SUPPORTED | PerfAttributes.CAP_PORT_XMIT_WAIT
                | (n.isSwitch() ? PerfAttributes.CAP_ALL_PORT_SELECT : 0);
        out.print(Dumps.portCounters(PortId.lid(twin.lid(r.node(), n.isSwitch() ? 0 : r.port())), r.port(), cap,
                data, 0));
    }

    private void traps(List<Word> args) {
        expect(args, 0, 0, "traps");
        List<PendingTrap> ts = twin.pendingTraps();
        if (ts.isEmpty()) {
            out.printf("no trap pending (%d sent)%n", twin.trapsSent());
        }
        for (PendingTrap t : ts) {
            out.printf("trap %d from \"%s\"[%d] tid 0x%x: sent %d time%s, not repressed%n", t.number(), t.nodeName(),
                    t.port(), t.tid(), t.sends(), t.sends() == 1 ? "" : "s");
        }
    }
}
