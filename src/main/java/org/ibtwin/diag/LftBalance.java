package org.ibtwin.diag;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * check_lft_balance's judgement: how many CA LIDs each switch port carries, read from a dump_fts (ibroute) listing of
 * every switch's LFT, with iblinkinfo's lines for the switch ({@code iblinkinfo -S <guid>}) saying which ports are
 * down and which lead straight to a host. A switch is unbalanced when its busiest counted port carries more than
 * one LID more than its idlest.
 *
 * <p>It reads the texts as infiniband-diags' script reads them, quirks included, so that it judges and prints the
 * same: only ports 1..36 are looked at; a LID counts when its destination line mentions "Channel" or "Router" (or
 * "path", an LMC range); a port is down when its iblinkinfo line says "Down"; a port whose count equals the LIDs of
 * one end port is skipped as "directly connected" when its link is Active and some host behind one port compares
 * equal to the remote name as Perl compares numbers (so any two non-numeric names are equal). With the heuristics
 * ({@code -e}) a switch with more than 12 live ports whose ports outside the two busiest counts are balanced, or
 * idle, is called balanced.
 */
public final class LftBalance {
    /** The ports the script looks at, as it names them. */
    private static final String[] PORTS = new String[36];

    static {
        for (int i = 0; i < PORTS.length; i++) {
            PORTS[i] = String.format("%03d", i + 1);
        }
    }

    private static final int UNIX = Pattern.UNIX_LINES;
    private static final Pattern DR_HEADER =
            Pattern.compile("Unicast lids .+ of switch DR path slid .+ guid (.+) \\((.+)\\)", UNIX);
    private static final Pattern LID_HEADER =
            Pattern.compile("Unicast lids .+ of switch Lid .+ guid (.+) \\((.+)\\)", UNIX);
    private static final Pattern HOST_LINE = Pattern.compile(".+ (.+) : \\(.+ portguid .+: '(.+)'\\)", UNIX);
    private static final Pattern PATH_LINE = Pattern.compile(".+ (.+) : \\(path #. out of .: portguid .+\\)", UNIX);
    private static final Pattern REMOTE = Pattern.compile(
            "[\\d]+[\\s]+[\\d]+\\[.+\\]  ==.+==>[\\s]+[\\d]+[\\s]+[\\d]+\\[.+\\] \"(.+)\".+", UNIX);

    /** One port's count as the script prints it ("Port 003: 5"). */
    public record PortUsage(String port, int lids) {
    }

    /**
     * One switch: its GUID and name as the dump's header gives them (null when there was none), whether it is
     * unbalanced, and the ports that were counted.
     */
    public record SwitchUsage(String guid, String name, boolean unbalanced, List<PortUsage> ports) {
        public int min() {
            return ports.stream().mapToInt(PortUsage::lids).min().orElse(0);
        }

        public int max() {
            return ports.stream().mapToInt(PortUsage::lids).max().orElse(0);
        }
    }

    private final Function<String, String> linkInfo;
    private final boolean heuristics;

    // the state of the walk through the dump, as the script keeps it
    private String switchGuid;
    private String switchName;
    private Map<String, Integer> portCount = new HashMap<>();
    private List<String> maybeDirectHosts = new ArrayList<>();
    private String host;
    private List<String> hostPorts = new ArrayList<>();
    private int lidsPerPort;
    private int lidsPerPortCalculated;
    private final List<SwitchUsage> switches = new ArrayList<>();

    /**
     * @param linkInfo   iblinkinfo's output for the switch with this GUID (as the dump spells it; null when the dump
     *                   named none), "" when it has none
     * @param heuristics -e
     */
    private LftBalance(Function<String, String> linkInfo, boolean heuristics) {
        this.linkInfo = linkInfo;
        this.heuristics = heuristics;
    }

    /** Every switch of {@code dump} (dump_fts or dump_lfts output), in its order. */
    public static List<SwitchUsage> judge(String dump, Function<String, String> linkInfo, boolean heuristics) {
        LftBalance b = new LftBalance(linkInfo, heuristics);
        for (String line : lines(dump)) {
            b.line(line);
        }
        if (!b.hostPorts.isEmpty()) {
            b.processHostPorts();
        }
        b.finishSwitch();
        return b.switches;
    }

    /** What the script prints: every switch with {@code verbose}, else the unbalanced ones. */
    public static String text(List<SwitchUsage> switches, boolean verbose) {
        StringBuilder out = new StringBuilder();
        for (SwitchUsage s : switches) {
            if (!verbose && !s.unbalanced()) {
                continue;
            }
            out.append(s.unbalanced() ? "Unbalanced Switch Port Usage: " : "Switch Port Usage: ")
                    .append(s.name() == null ? "" : s.name()).append(", ")
                    .append(s.guid() == null ? "" : s.guid()).append('\n');
            for (PortUsage p : s.ports()) {
                out.append("Port ").append(p.port()).append(": ").append(p.lids()).append('\n');
            }
        }
        return out.toString();
    }

    /** Perl's lines of a file: split after each newline, chomped, no empty line after a final newline. */
    static List<String> lines(String text) {
        List<String> l = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            int nl = text.indexOf('\n', i);
            if (nl < 0) {
                l.add(text.substring(i));
                break;
            }
            l.add(text.substring(i, nl));
            i = nl + 1;
        }
        return l;
    }

    private void line(String line) {
        if (line.contains("Unicast")) {
            if (!hostPorts.isEmpty()) {
                processHostPorts();
            }
            if (switchName != null) {
                finishSwitch();
            }
            for (Pattern p : new Pattern[] {DR_HEADER, LID_HEADER}) {
                Matcher m = p.matcher(line);
                if (m.find()) {
                    switchGuid = m.group(1);
                    switchName = m.group(2);
                }
            }
            maybeDirectHosts = new ArrayList<>();
            portCount = new HashMap<>();
            hostPorts = new ArrayList<>();
            lidsPerPort = 0;
            lidsPerPortCalculated = 0;
        } else if (line.contains("Channel") || line.contains("Router")) {
            Matcher m = HOST_LINE.matcher(line);
            // a failed match leaves $1 and $2 as the plain match before it left them: undefined
            String port = m.find() ? m.group(1) : null;
            host = port != null ? m.group(2) : null;
            count(port);
            if (!hostPorts.isEmpty()) {
                processHostPorts();
            }
            hostPorts = new ArrayList<>();
            hostPorts.add(port);
            if (lidsPerPort == 0) {
                lidsPerPort++;
            } else {
                lidsPerPortCalculated++;
            }
        } else if (line.contains("path")) {
            Matcher m = PATH_LINE.matcher(line);
            String port = m.find() ? m.group(1) : null;
            count(port);
            if (lidsPerPortCalculated == 0) {
                lidsPerPort++;
            }
            hostPorts.add(port);
        } else if (lidsPerPort != 0) {
            lidsPerPortCalculated++;
        }
    }

    private void count(String port) {
        portCount.merge(port == null ? "" : port, 1, Integer::sum);
    }

    /** A host whose LIDs all leave by one port may sit right behind it. */
    private void processHostPorts() {
        if (hostPorts.size() != lidsPerPort) {
            return;
        }
        double first = PerlNumbers.num(hostPorts.get(0));
        for (String p : hostPorts) {
            if (PerlNumbers.num(p) != first) {
                return;
            }
        }
        maybeDirectHosts.add(host);
    }

    private void finishSwitch() {
        String links = switchGuid == null ? "" : linkInfo.apply(switchGuid);
        List<String> linkLines = links == null ? List.of() : List.of(links.split("\n"));
        int min = 999999;
        int max = 0;
        int portsOnSwitch = 0;
        List<PortUsage> counted = new ArrayList<>();
        for (String port : PORTS) {
            int n = portCount.getOrDefault(port, 0);
            if (n == 0 && !up(linkLines, port)) {
                continue;
            }
            portsOnSwitch++;
            if (directlyConnected(linkLines, port, n)) {
                continue;
            }
            counted.add(new PortUsage(port, n));
            min = Math.min(min, n);
            max = Math.max(max, n);
        }
        boolean unbalanced = max > min + 1;
        if (heuristics && unbalanced && portsOnSwitch > 12) {
            // a line board: about half its ports go up, half down to hosts; judge the half that is not busiest
            List<PortUsage> rest = new ArrayList<>();
            for (PortUsage p : counted) {
                if (p.lids() != max && p.lids() != max - 1 && p.lids() != 0) {
                    rest.add(p);
                }
            }
            int half = portsOnSwitch / 2;
            if (rest.size() == half || rest.size() == half + 1 || rest.size() == half - 1) {
                int min2 = 999999;
                int max2 = 0;
                for (PortUsage p : rest) {
                    min2 = Math.min(min2, p.lids());
                    max2 = Math.max(max2, p.lids());
                }
                if (!(max2 > min2 + 1)) {
                    unbalanced = false;
                }
            }
        }
        if (heuristics && unbalanced && portsOnSwitch > 12) {
            // a switch not fully populated: every port outside the busiest two counts idle
            boolean allZero = true;
            for (PortUsage p : counted) {
                if (p.lids() != max && p.lids() != max - 1 && p.lids() != 0) {
                    allZero = false;
                    break;
                }
            }
            if (allZero) {
                unbalanced = false;
            }
        }
        switches.add(new SwitchUsage(switchGuid, switchName, unbalanced, List.copyOf(counted)));
    }

    /** The port's number as iblinkinfo's port column shows it, ahead of "[..] ==". */
    private static Pattern portPattern(String port) {
        String dec = Integer.toString(Integer.parseInt(port));
        if (dec.length() == 1) {
            dec = " " + dec;
        }
        return Pattern.compile(Pattern.quote(dec) + "\\[..\\] ==", UNIX);
    }

    private static boolean up(List<String> linkLines, String port) {
        Pattern p = portPattern(port);
        for (String l : linkLines) {
            if (p.matcher(l).find()) {
                return !l.contains("Down");
            }
        }
        return false;
    }

    private boolean directlyConnected(List<String> linkLines, String port, int count) {
        if (count != lidsPerPort || maybeDirectHosts.isEmpty()) {
            return false;
        }
        Pattern p = portPattern(port);
        String last = null;
        for (String l : linkLines) {
            if (p.matcher(l).find()) {
                last = l;
            }
        }
        if (last == null || !last.contains("Active")) {
            return false;
        }
        Matcher m = REMOTE.matcher(last);
        String remote = m.find() ? m.group(1) : null;
        double r = PerlNumbers.num(remote);
        for (String h : maybeDirectHosts) {
            if (r == PerlNumbers.num(h)) {
                return true;
            }
        }
        return false;
    }
}
