package org.ibtwin.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Semaphore;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Snapshot;
import org.ibtwin.format.FormatException;
import org.ibtwin.format.SnapshotFabric;
import org.ibtwin.lab.Rehearsal;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.whatif.Change;
import org.ibtwin.whatif.Changes;
import org.ibtwin.whatif.Report;

/**
 * The what-if reports the web view shows: saved ones ({@code ibtwin what-if ... --json}, loaded at start) and those
 * a page asks for. A rehearsal asked for runs {@link Rehearsal} on two copies of the fabric as the source holds it
 * now (written to a snapshot and read back: fresh models), with ibtwin's SM and its defaults (minhop, LMC 0, at the
 * first CA); the served fabric is never touched. One rehearsal at a time.
 */
public final class WhatIfs {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A report: where it came from ("asked from the page", a file), when, and the report's JSON. */
    public record Entry(int id, String time, String origin, JsonNode report) {
    }

    /** Bad input to a rehearsal asked for (an unknown change, a node no fabric has): the page shows the line. */
    public static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final int status;

        Refused(String message) {
            this(message, 400);
        }

        Refused(String message, int status) {
            super(message);
            this.status = status;
        }

        /** The HTTP status: 400 bad input, 409 a rehearsal running, 403 no rehearsals here. */
        public int status() {
            return status;
        }
    }

    private final List<Entry> entries = new ArrayList<>();
    private final Semaphore one = new Semaphore(1);
    private final boolean rehearsals;

    /** @param rehearsals whether a page may ask for a rehearsal (the source can be copied) */
    public WhatIfs(boolean rehearsals) {
        this.rehearsals = rehearsals;
    }

    /** Whether pages may ask for rehearsals. */
    public boolean rehearsals() {
        return rehearsals;
    }

    public boolean busy() {
        return one.availablePermits() == 0;
    }

    /**
     * Loads a saved report ({@code ibtwin what-if ... --json > FILE}).
     *
     * @throws FormatException ({@code file:0: ...}) when it is not one
     */
    public Entry load(Path file) {
        JsonNode j;
        try {
            j = JSON.readTree(Files.readAllBytes(file));
        } catch (java.nio.file.NoSuchFileException e) {
            throw new FormatException(file.toString(), 0, "no such file");
        } catch (IOException e) {
            throw new FormatException(file.toString(), 0, "not a what-if report (" + firstLine(e.getMessage())
                    + ")");
        }
        if (j == null || !j.isObject() || !j.has("reachability") || !j.has("changes")) {
            throw new FormatException(file.toString(), 0, "not a what-if report (ibtwin what-if --json writes one: "
                    + "no \"changes\" and \"reachability\")");
        }
        return add("file " + file, j);
    }

    /**
     * Rehearses {@code changes} (each {@code {"change": "pull-cable", "value": "leaf01/4"}}, the names of
     * {@code ibtwin what-if}'s options) on copies of {@code now}.
     *
     * @throws Refused for bad input, or when a rehearsal is running already
     */
    public Entry rehearse(FabricState now, String name, JsonNode changes) {
        if (!rehearsals) {
            throw new Refused("this source cannot be rehearsed on", 403);
        }
        List<Change> list = parse(changes);
        if (!one.tryAcquire()) {
            throw new Refused("a rehearsal is running already: wait for its report", 409);
        }
        Path tmp = null;
        try {
            tmp = Files.createTempFile("ibtwin-what-if-", ".json");
            Snapshot.of(now).write(tmp);
            Path copy = tmp;
            Report r = Rehearsal.run(() -> SnapshotFabric.read(copy), name, new Rehearsal.Settings(
                    SmConfig.defaults(), null, null, null), list);
            return add("asked from the page", r.json());
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the copy of the fabric: " + e.getMessage(), e);
        } catch (IllegalArgumentException | FormatException e) {
            throw new Refused(e.getMessage());
        } finally {
            one.release();
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // a temporary file left behind
                }
            }
        }
    }

    private static List<Change> parse(JsonNode changes) {
        if (changes == null || !changes.isArray() || changes.isEmpty()) {
            throw new Refused("give at least one change: {\"changes\": [{\"change\": \"pull-cable\", \"value\": "
                    + "\"leaf01/4\"}]}");
        }
        List<Change> out = new ArrayList<>();
        for (JsonNode c : changes) {
            String n = c.path("change").asText("");
            if (!Change.NAMES.contains(n)) {
                throw new Refused("unknown change \"" + n + "\" (one of " + String.join(", ", Change.NAMES) + ")");
            }
            String v = c.path("value").isNull() || c.path("value").isMissingNode() ? null
                    : c.path("value").asText().strip();
            if ((v == null || v.isEmpty()) && !n.equals("kill-sm")) {
                throw new Refused(n + " needs a value");
            }
            try {
                out.add(Changes.option(n, v == null || v.isEmpty() ? null : v));
            } catch (IllegalArgumentException | FormatException e) {
                throw new Refused(e.getMessage());
            }
        }
        return out;
    }

    private synchronized Entry add(String origin, JsonNode report) {
        Entry e = new Entry(entries.size() + 1, Instant.now().toString(), origin, report);
        entries.add(e);
        return e;
    }

    public synchronized Entry get(int id) {
        return id >= 1 && id <= entries.size() ? entries.get(id - 1) : null;
    }

    /** Every report, newest first, as the list the page shows. */
    public synchronized List<Map<String, Object>> list() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (int i = entries.size() - 1; i >= 0; i--) {
            out.add(summary(entries.get(i)));
        }
        return out;
    }

    /** One line of the list: id, time, origin, changes, pairs lost and gained, exit. */
    public static Map<String, Object> summary(Entry e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", e.id());
        m.put("time", e.time());
        m.put("origin", e.origin());
        m.put("fabric", e.report().path("fabric").asText(""));
        List<String> ch = new ArrayList<>();
        e.report().path("changes").forEach(c -> ch.add(c.asText()));
        m.put("changes", ch);
        m.put("lost", e.report().path("reachability").path("lost").asLong());
        m.put("gained", e.report().path("reachability").path("gained").asLong());
        m.put("exit", e.report().path("exit").asInt());
        return m;
    }

    /** The event a finished rehearsal adds. */
    static String describe(Entry e) {
        Map<String, Object> s = summary(e);
        return String.format(Locale.ROOT, "what-if #%d: %s: %,d host pairs lost, %,d gained", e.id(),
                String.join("; ", cast(s.get("changes"))), (Long) s.get("lost"), (Long) s.get("gained"));
    }

    @SuppressWarnings("unchecked")
    private static List<String> cast(Object o) {
        return (List<String>) o;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unreadable";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
