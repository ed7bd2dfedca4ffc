package org.ibtwin.doctor;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What doctor found: the findings most severe first, the checks that ran, those that could not (and why), and for
 * offline sources the files read and ignored. Printed as text or as JSON.
 *
 * @param checked the ids of the checks that ran
 */
public record Report(String source, String shape, List<Finding> findings, List<String> checked,
                     List<Skipped> notChecked, List<String> read, List<String> ignored) {

    /** A check that did not run, and why. */
    public record Skipped(String id, String name, String reason) {
    }

    public Report {
        findings = List.copyOf(findings);
        checked = List.copyOf(checked);
        notChecked = List.copyOf(notChecked);
        read = List.copyOf(read);
        ignored = List.copyOf(ignored);
    }

    public Map<Severity, Integer> counts() {
        Map<Severity, Integer> m = new EnumMap<>(Severity.class);
        for (Severity s : Severity.values()) {
            m.put(s, 0);
        }
        findings.forEach(f -> m.merge(f.severity(), 1, Integer::sum));
        return m;
    }

    /** The most severe finding's severity, or null when there is none. */
    public Severity worst() {
        return findings.isEmpty() ? null : findings.get(0).severity();
    }

    /** 0 when nothing at or above {@code failOn} was found, 1 otherwise. */
    public int exitCode(Severity failOn) {
        Severity w = worst();
        return w != null && w.atLeast(failOn) ? 1 : 0;
    }

    /** "3 findings: 0 critical, 2 errors, 1 warning, 0 info". */
    public String summary() {
        Map<Severity, Integer> c = counts();
        return (findings.isEmpty() ? "no findings" : findings.size() + " finding" + (findings.size() == 1 ? "" : "s"))
                + ": " + c.get(Severity.CRITICAL) + " critical, " + c.get(Severity.ERROR) + " error"
                + (c.get(Severity.ERROR) == 1 ? "" : "s") + ", " + c.get(Severity.WARNING) + " warning"
                + (c.get(Severity.WARNING) == 1 ? "" : "s") + ", " + c.get(Severity.INFO) + " info";
    }

    public String toText() {
        StringBuilder sb = new StringBuilder();
        sb.append("ibtwin doctor: ").append(source).append(" (").append(shape).append(")\n");
        if (!read.isEmpty()) {
            sb.append("read ").append(read.size()).append(" file").append(read.size() == 1 ? "" : "s");
            sb.append(ignored.isEmpty() ? "" : ", ignored " + ignored.size()).append('\n');
        }
        sb.append('\n');
        for (Finding f : findings) {
            sb.append(String.format("%-8s %s  %s%n", f.severity().name(), f.id(), f.where()));
            sb.append("         ").append(f.title()).append('\n');
            for (String e : f.evidence()) {
                sb.append("           - ").append(e).append('\n');
            }
            sb.append("         fix: ").append(f.fix()).append("\n\n");
        }
        sb.append(summary()).append("; ").append(checked.size()).append(" check").append(checked.size() == 1 ? ""
                : "s").append(" run");
        sb.append(notChecked.isEmpty() ? "\n" : ", " + notChecked.size() + " not checked:\n");
        for (Skipped s : notChecked) {
            sb.append(String.format("  %s %-44s %s%n", s.id(), s.name(), s.reason()));
        }
        if (!ignored.isEmpty()) {
            sb.append("ignored files:\n");
            for (String i : ignored) {
                sb.append("  ").append(i).append('\n');
            }
        }
        return sb.toString();
    }

    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source", source);
        m.put("shape", shape);
        Map<String, Object> summary = new LinkedHashMap<>();
        counts().forEach((k, v) -> summary.put(k.label(), v));
        summary.put("findings", findings.size());
        m.put("summary", summary);
        List<Map<String, Object>> fs = new ArrayList<>();
        for (Finding f : findings) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("id", f.id());
            o.put("severity", f.severity().label());
            o.put("where", f.where());
            o.put("title", f.title());
            o.put("evidence", f.evidence());
            o.put("fix", f.fix());
            fs.add(o);
        }
        m.put("findings", fs);
        m.put("checked", checked);
        List<Map<String, Object>> ns = new ArrayList<>();
        for (Skipped s : notChecked) {
            ns.add(Map.of("id", s.id(), "name", s.name(), "reason", s.reason()));
        }
        m.put("notChecked", ns);
        if (!read.isEmpty() || !ignored.isEmpty()) {
            m.put("read", read);
            m.put("ignored", ignored);
        }
        return m;
    }
}
