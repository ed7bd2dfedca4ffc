package org.ibtwin.doctor.checks;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import org.ibtwin.format.NamePattern;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;

/** Shared wording for findings. */
final class Words {
    /** Evidence lists longer than this are cut with "... and N more". */
    static final int MAX_EVIDENCE = 12;

    private Words() {
    }

    /** "4xHDR". */
    static String rate(LinkWidth w, LinkSpeed s) {
        return w.label() + s.label();
    }

    /** "4xHDR (200 Gb/s)". */
    static String rateGbps(LinkWidth w, LinkSpeed s) {
        return rate(w, s) + " (" + gbps(org.ibtwin.model.Link.dataGbps(w, s)) + " Gb/s)";
    }

    static String active(Link l) {
        return rateGbps(l.activeWidth(), l.activeSpeed());
    }

    /** 200, 54.5, 63. */
    static String gbps(double g) {
        double r = Math.round(g * 10) / 10.0;
        return r == Math.rint(r) ? Long.toString((long) r) : String.format(Locale.ROOT, "%.1f", r);
    }

    /** "node[001-004]", or the one name. */
    static String names(Collection<String> names) {
        if (names.size() == 1) {
            return names.iterator().next();
        }
        // "node001/1", "node002/1" -> "node[001-002]/1": compress the node part of ports with the same number
        java.util.Map<String, java.util.List<String>> bySuffix = new java.util.LinkedHashMap<>();
        for (String n : names) {
            int slash = n.lastIndexOf('/');
            String suffix = slash > 0 && n.substring(slash + 1).matches("\\d+") ? n.substring(slash) : "";
            bySuffix.computeIfAbsent(suffix, k -> new java.util.ArrayList<>()).add(suffix.isEmpty() ? n
                    : n.substring(0, slash));
        }
        java.util.List<String> parts = new java.util.ArrayList<>();
        bySuffix.forEach((suffix, nodes) -> parts.add((nodes.size() == 1 ? nodes.get(0) : NamePattern.compress(nodes))
                + suffix));
        return String.join(",", parts);
    }

    /** The first MAX_EVIDENCE lines and a count of the rest. */
    static List<String> cap(List<String> lines) {
        if (lines.size() <= MAX_EVIDENCE) {
            return lines;
        }
        List<String> out = new java.util.ArrayList<>(lines.subList(0, MAX_EVIDENCE));
        out.add("... and " + (lines.size() - MAX_EVIDENCE) + " more");
        return out;
    }

    /** " (source)" or "". */
    static String from(String source) {
        return source == null || source.isEmpty() ? "" : " (" + source + ")";
    }

    static String plural(int n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }
}
