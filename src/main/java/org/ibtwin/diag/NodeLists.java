package org.ibtwin.diag;

import java.util.ArrayList;
import java.util.List;

/**
 * What ibhosts and ibswitches print: in infiniband-diags they are shell scripts running awk over ibnetdiscover's
 * topology (or a topology file given to them), and this is their awk, rule for rule, over the same text: a
 * {@code Ca} line becomes {@code Ca\t: 0x<guid> ports <n> <comment>}, a {@code Switch} line
 * {@code Switch\t: 0x<guid> ports <n> "<desc>" base port 0 lid <l> lmc <m>} (its port-0 words moved as the script
 * moves them), and lines starting with "ib" or holding ibpanic:/ibwarn:/iberror: pass through.
 */
public final class NodeLists {
    private NodeLists() {
    }

    /** ibhosts' lines for a topology text. */
    public static List<String> hosts(String topology) {
        return run(topology, false);
    }

    /** ibswitches' lines for a topology text. */
    public static List<String> switches(String topology) {
        return run(topology, true);
    }

    private static List<String> run(String text, boolean switches) {
        List<String> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        int n = text.endsWith("\n") ? lines.length - 1 : lines.length;
        for (int i = 0; i < n; i++) {
            String l = lines[i];
            String[] f = fields(l);
            if (!switches && l.startsWith("Ca")) {
                out.add(field(f, 1) + "\t: 0x" + substr(field(f, 3), 4, 16) + " ports " + field(f, 2) + " "
                        + substr(l, afterHash(l)));
            }
            if (switches && l.startsWith("Switch")) {
                String desc = substr(l, afterHash(l));
                int pi = match(desc, "port 0");
                String pinfo = substr(desc, pi);
                desc = substr(desc, 1, pi - 2);
                String type = "base port 0";
                int ti = match(desc, type);
                if (ti == 0) {
                    type = "enhanced port 0";
                    ti = match(desc, type);
                    if (ti != 0) {
                        desc = substr(desc, 1, ti - 2);
                    }
                } else {
                    desc = substr(desc, 1, ti - 2);
                }
                String head = field(f, 1) + "\t: 0x" + substr(field(f, 3), 4, 16) + " ports " + field(f, 2) + " "
                        + desc + " ";
                out.add(ti == 0 ? head + pinfo : head + type + " " + pinfo);
            }
            if (l.startsWith("ib")) {
                out.add(l);
                continue;
            }
            for (String w : new String[] {"ibpanic:", "ibwarn:", "iberror:"}) {
                if (l.contains(w)) {
                    out.add(l);
                }
            }
        }
        return out;
    }

    /** awk's $k (1-based; blanks and tabs separate fields), "" past the last. */
    private static String field(String[] f, int k) {
        return k <= f.length ? f[k - 1] : "";
    }

    private static String[] fields(String l) {
        String t = l.strip();
        return t.isEmpty() ? new String[0] : t.split("[ \t]+");
    }

    /** match(s, "#[ \t]*") + RLENGTH: where the text after the first '#' and its blanks starts (awk positions). */
    private static int afterHash(String s) {
        int h = s.indexOf('#');
        if (h < 0) {
            return 0 + -1;      // RSTART 0, RLENGTH -1
        }
        int e = h + 1;
        while (e < s.length() && (s.charAt(e) == ' ' || s.charAt(e) == '\t')) {
            e++;
        }
        return h + 1 + (e - h);
    }

    /** awk's match for a literal pattern: 1-based position, 0 when absent. */
    private static int match(String s, String lit) {
        return s.indexOf(lit) + 1;
    }

    /** awk's substr(s, m): from 1-based position m to the end (m below 1 counts from the start). */
    private static String substr(String s, int m) {
        int from = Math.max(1, m);
        return from > s.length() ? "" : s.substring(from - 1);
    }

    /** awk's substr(s, m, n): the characters at 1-based positions m..m+n-1 that exist. */
    private static String substr(String s, int m, int n) {
        int from = Math.max(1, m);
        int to = m + n - 1;
        if (to < from) {
            return "";
        }
        to = Math.min(to, s.length());
        return from > to ? "" : s.substring(from - 1, to);
    }
}
