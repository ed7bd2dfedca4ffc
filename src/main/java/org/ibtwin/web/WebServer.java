package org.ibtwin.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.ibtwin.doctor.Finding;
import org.ibtwin.doctor.Report;
import org.webjars.WebJarVersionLocator;

/**
 * The web view's server: the JDK's HTTP server on loopback, the pages and the WebJars' scripts from the classpath,
 * the JSON API under {@code /api/} (Jackson) and the events as server-sent events on {@code /api/events/stream}.
 * Every request only reads: the {@link Monitor}'s latest {@link FabricView}, its traffic figures, the doctor's
 * report, the {@link Events}.
 */
public final class WebServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long KEEPALIVE_SECONDS = 15;
    /** How long a node's or link's details wait for the doctor's report (a big fabric's takes a minute). */
    static final long DETAILS_WAIT_MILLIS = 2000;
    private volatile Object[] mapCache = {-1L, true, null};
    private volatile Object[] podsCache = {-1L, null};
    private final Monitor monitor;
    private final Events events;
    private final WhatIfs whatIfs;
    private final Snapshots snapshots;
    private final HttpServer http;
    private final ExecutorService pool;
    private final WebJarVersionLocator webjars = new WebJarVersionLocator();
    private volatile boolean closing;

    private WebServer(Monitor monitor, Events events, WhatIfs whatIfs, Snapshots snapshots, HttpServer http,
                      ExecutorService pool) {
        this.monitor = monitor;
        this.events = events;
        this.whatIfs = whatIfs;
        this.snapshots = snapshots;
        this.http = http;
        this.pool = pool;
    }

    /**
     * Serves {@code monitor}'s source on loopback at {@code port} (0: any free port).
     *
     * @throws IllegalArgumentException when the port cannot be bound (one line: "port 8070 of 127.0.0.1: ...")
     */
    public static WebServer start(Monitor monitor, Events events, int port) throws IOException {
        return start(monitor, events, new WhatIfs(false), new Snapshots(List.of()), port);
    }

    /**
     * Serves {@code monitor}'s source with its what-if reports (and the rehearsals a page asks for) and the
     * snapshots to compare.
     */
    public static WebServer start(Monitor monitor, Events events, WhatIfs whatIfs, Snapshots snapshots, int port)
            throws IOException {
        HttpServer http;
        try {
            http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
        } catch (java.net.BindException e) {
            throw new IllegalArgumentException("port " + port + " of 127.0.0.1: " + e.getMessage(), e);
        }
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
        http.setExecutor(pool);
        WebServer s = new WebServer(monitor, events, whatIfs, snapshots, http, pool);
        http.createContext("/", s::handle);
        http.start();
        return s;
    }

    /** The page's address: {@code http://127.0.0.1:PORT/}. */
    public String url() {
        InetSocketAddress a = http.getAddress();
        return "http://" + a.getAddress().getHostAddress() + ":" + a.getPort() + "/";
    }

    public int port() {
        return http.getAddress().getPort();
    }

    private void handle(HttpExchange x) throws IOException {
        try (x) {
            String path = x.getRequestURI().getPath();
            if (x.getRequestMethod().equals("POST") && path.equals("/api/what-if")) {
                rehearse(x);
                return;
            }
            if (!x.getRequestMethod().equals("GET") && !x.getRequestMethod().equals("HEAD")) {
                send(x, 405, "text/plain", ("the web view only reads (GET); the one POST is /api/what-if, a "
                        + "rehearsal on copies\n").getBytes(StandardCharsets.UTF_8));
                return;
            }
            if (path.equals("/") || path.equals("/index.html")) {
                resource(x, "org/ibtwin/web/app/index.html");
            } else if (path.startsWith("/app/") && !path.contains("..")) {
                resource(x, "org/ibtwin/web/app/" + path.substring(5));
            } else if (path.startsWith("/webjars/") && !path.contains("..")) {
                String rest = path.substring("/webjars/".length());
                int slash = rest.indexOf('/');
                String full = slash < 0 ? null : webjars.fullPath(rest.substring(0, slash), rest.substring(slash + 1));
                if (full == null) {
                    notFound(x);
                } else {
                    resource(x, full);
                }
            } else if (path.startsWith("/api/")) {
                api(x, path.substring(5), query(x.getRequestURI()));
            } else {
                notFound(x);
            }
        } catch (IOException e) {
            // the browser went away
        } catch (RuntimeException e) {
            try {
                send(x, 500, "text/plain", ("error: " + e + "\n").getBytes(StandardCharsets.UTF_8));
            } catch (IOException ignored) {
                // the browser went away
            }
        }
    }

    private void api(HttpExchange x, String what, Map<String, String> q) throws IOException {
        FabricView v = monitor.view();
        switch (what) {
            case "fabric" -> json(x, fabric(v));
            case "map" -> {
                // ?pods=0: a big fabric switch by switch, as it is drawn when it is not opened as pods
                boolean podView = !"0".equals(q.get("pods"));
                Object[] c = mapCache;
                if (!c[0].equals(v.version()) || !c[1].equals(podView)) {
                    c = new Object[] {v.version(), podView, JSON.writeValueAsBytes(MapGraph.of(v, podView))};
                    mapCache = c;
                }
                send(x, 200, "application/json; charset=utf-8", (byte[]) c[2]);
            }
            case "map/rack" -> json(x, MapGraph.rack(v, q.getOrDefault("id", "")));
            case "map/pod" -> {
                MapPods pods = pods(v);
                Map<String, Object> p = pods == null ? null : pods.pod(podNumber(q.getOrDefault("id", "")));
                if (p == null) {
                    notFound(x);
                    return;
                }
                json(x, p);
            }
            case "node" -> {
                FabricView.NodeRow n = v.node(q.getOrDefault("id", ""));
                if (n == null) {
                    notFound(x);
                    return;
                }
                json(x, node(v, n));
            }
            case "link" -> {
                FabricView.LinkRow l = v.link(q.getOrDefault("id", ""));
                if (l == null) {
                    notFound(x);
                    return;
                }
                json(x, link(v, l));
            }
            case "doctor" -> {
                // ?wait=0: the last report made, at once (a page shows the doctor's progress meanwhile)
                Report r = "0".equals(q.get("wait")) ? monitor.doctor(0) : monitor.doctor();
                if (r == null) {
                    send(x, 202, "application/json; charset=utf-8", JSON.writeValueAsBytes(monitor.doctorStatus()));
                    return;
                }
                json(x, doctor(v, r));
            }
            case "doctor/status" -> json(x, monitor.doctorStatus());
            case "events" -> json(x, events.since(parseLong(q.get("since"))));
            case "events/stream" -> stream(x);
            case "traffic" -> json(x, monitor.traffic());
            case "what-if" -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("rehearsals", whatIfs.rehearsals());
                m.put("busy", whatIfs.busy());
                m.put("changes", org.ibtwin.whatif.Change.NAMES);
                m.put("reports", whatIfs.list());
                json(x, m);
            }
            case "what-if/report" -> {
                WhatIfs.Entry e = whatIfs.get((int) Math.min(Integer.MAX_VALUE, parseLong(q.get("id"))));
                if (e == null) {
                    notFound(x);
                    return;
                }
                json(x, whatIf(v, e));
            }
            case "snapshots" -> json(x, Map.of("snapshots", snapshots.list()));
            case "snapshots/diff" -> {
                try {
                    json(x, snapshots.diff(q.getOrDefault("a", ""), q.getOrDefault("b", "")));
                } catch (IllegalArgumentException e) {
                    send(x, 400, "application/json; charset=utf-8", JSON.writeValueAsBytes(Map.of("error",
                            e.getMessage())));
                }
            }
            default -> table(x, what, q);
        }
    }

    private void table(HttpExchange x, String what, Map<String, String> q) throws IOException {
        boolean csv = what.endsWith(".csv");
        String name = csv ? what.substring(0, what.length() - 4) : what;
        Tables.Table<?> t = Tables.ALL.get(name);
        if (t == null) {
            notFound(x);
            return;
        }
        List<List<Object>> rows = Tables.filter(t, monitor.view(), q.get("q"));
        if (csv) {
            x.getResponseHeaders().set("Content-Disposition", "attachment; filename=\"ibtwin-" + name + ".csv\"");
            send(x, 200, "text/csv; charset=utf-8", Tables.csv(rows).getBytes(StandardCharsets.UTF_8));
            return;
        }
        int limit = (int) Math.min(Integer.MAX_VALUE, q.containsKey("limit") ? parseLong(q.get("limit")) : 1000);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("table", name);
        m.put("columns", rows.getFirst());
        m.put("total", rows.size() - 1);
        m.put("rows", rows.subList(1, Math.min(rows.size(), 1 + Math.max(0, limit))));
        json(x, m);
    }

    private static Map<String, Object> whatIf(FabricView v, WhatIfs.Entry e) {
        Map<String, Object> m = new LinkedHashMap<>(WhatIfs.summary(e));
        m.put("report", e.report());
        m.put("map", WhatIfMap.of(v, e.report()));
        return m;
    }

    /**
     * {@code POST /api/what-if}: a rehearsal on copies of the fabric as it is now. Only {@code application/json}
     * (a page of another site cannot send that without the browser asking first), one at a time.
     */
    private void rehearse(HttpExchange x) throws IOException {
        String type = x.getRequestHeaders().getFirst("Content-Type");
        if (type == null || !type.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
            send(x, 415, "application/json; charset=utf-8", JSON.writeValueAsBytes(Map.of("error",
                    "POST /api/what-if takes application/json: {\"changes\": [{\"change\": \"pull-cable\", "
                            + "\"value\": \"leaf01/4\"}]}")));
            return;
        }
        com.fasterxml.jackson.databind.JsonNode body;
        try (InputStream in = x.getRequestBody()) {
            body = JSON.readTree(in.readNBytes(1 << 20));
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            send(x, 400, "application/json; charset=utf-8", JSON.writeValueAsBytes(Map.of("error",
                    "the body is not JSON: " + e.getOriginalMessage())));
            return;
        }
        try {
            events.add("what-if", "what-if asked for: " + (body == null ? "" : body.path("changes")));
            WhatIfs.Entry e = whatIfs.rehearse(monitor.source().state(), monitor.source().name(),
                    body == null ? null : body.get("changes"));
            events.add("what-if", WhatIfs.describe(e), "", Map.of("id", e.id()));
            json(x, whatIf(monitor.view(), e));
        } catch (WhatIfs.Refused e) {
            send(x, e.status(), "application/json; charset=utf-8",
                    JSON.writeValueAsBytes(Map.of("error", e.getMessage())));
        }
    }

    private static Map<String, Object> fabric(FabricView v) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source", v.source());
        m.put("live", v.live());
        m.put("shape", v.shape());
        m.put("version", v.version());
        m.put("time", v.time());
        m.put("switches", v.nodes().stream().filter(n -> n.type().equals("switch")).count());
        m.put("hosts", v.nodes().stream().filter(n -> !n.type().equals("switch")).count());
        m.put("links", v.links().size());
        Map<String, Long> health = new LinkedHashMap<>();
        for (FabricView.LinkRow l : v.links()) {
            health.merge(l.health(), 1L, Long::sum);
        }
        m.put("linkHealth", health);
        return m;
    }

    /** The pods of a big fabric's map (null: it is drawn switch by switch), made once per view. */
    private MapPods pods(FabricView v) {
        Object[] c = podsCache;
        if (!c[0].equals(v.version())) {
            c = new Object[] {v.version(), MapPods.of(v, v.links().stream().filter(FabricView.LinkRow::switchLink)
                    .count(), MapPods.ABOVE)};
            podsCache = c;
        }
        return (MapPods) c[1];
    }

    /** "P3" (or "3") as a pod's number, -1 when it is neither. */
    private static int podNumber(String id) {
        try {
            return Integer.parseInt(id.startsWith("P") ? id.substring(1) : id);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private Map<String, Object> node(FabricView v, FabricView.NodeRow n) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("node", n);
        MapPods pods = pods(v);
        if (pods != null && pods.podOfNode(n) >= 0) {
            m.put("pod", "P" + pods.podOfNode(n));
        }
        List<FabricView.PortRow> ports = new ArrayList<>();
        for (FabricView.PortRow p : v.ports()) {
            if (p.nodeId().equals(n.id())) {
                ports.add(p);
            }
        }
        m.put("ports", ports);
        m.put("findings", findingsAbout(v, n.id()));
        return m;
    }

    private Map<String, Object> link(FabricView v, FabricView.LinkRow l) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("link", l);
        List<FabricView.PortRow> ends = new ArrayList<>();
        for (FabricView.PortRow p : v.ports()) {
            if (p.linkId().equals(l.id())) {
                ends.add(p);
            }
        }
        m.put("ports", ends);
        for (FabricView.CableRow c : v.cables()) {
            if (c.linkId().equals(l.id())) {
                m.put("cable", c);
            }
        }
        m.put("findings", findingsAbout(v, l.id()));
        return m;
    }

    /** The doctor's findings on an element: those of its report made within 2 s, else of the last one (or none). */
    private List<Map<String, Object>> findingsAbout(FabricView v, String id) {
        List<Map<String, Object>> out = new ArrayList<>();
        Report r = monitor.doctor(DETAILS_WAIT_MILLIS);
        if (r == null) {
            return out;
        }
        for (Finding f : r.findings()) {
            if (Monitor.targets(v, f).contains(id)) {
                out.add(Map.of("id", f.id(), "severity", f.severity().label(), "title", f.title()));
            }
        }
        return out;
    }

    private static Map<String, Object> doctor(FabricView v, Report r) {
        Map<String, Object> m = r.toJson();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> fs = (List<Map<String, Object>>) m.get("findings");
        for (int i = 0; i < fs.size(); i++) {
            fs.get(i).put("targets", Monitor.targets(v, r.findings().get(i)));
        }
        return m;
    }

    /** Server-sent events: what was kept after Last-Event-ID (or nothing), then each event as it comes. */
    private void stream(HttpExchange x) throws IOException {
        LinkedBlockingQueue<Events.Event> q = events.subscribe();
        try {
            x.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
            x.getResponseHeaders().set("Cache-Control", "no-cache");
            x.sendResponseHeaders(200, 0);
            OutputStream out = x.getResponseBody();
            out.write("retry: 1000\n\n".getBytes(StandardCharsets.UTF_8));
            String last = x.getRequestHeaders().getFirst("Last-Event-ID");
            long sent = 0;
            if (last != null) {
                for (Events.Event e : events.since(parseLong(last))) {
                    write(out, e);
                    sent = e.seq();
                }
            }
            out.flush();
            while (!closing) {
                Events.Event e;
                try {
                    e = q.poll(KEEPALIVE_SECONDS, TimeUnit.SECONDS);
                } catch (InterruptedException ie) {
                    return;
                }
                if (e == null) {
                    out.write(": keep-alive\n\n".getBytes(StandardCharsets.UTF_8));
                } else if (e.seq() > sent) {
                    write(out, e);
                }
                out.flush();
            }
        } finally {
            events.unsubscribe(q);
        }
    }

    private static void write(OutputStream out, Events.Event e) throws IOException {
        String s = "id: " + e.seq() + "\nevent: " + e.kind() + "\ndata: " + JSON.writeValueAsString(e) + "\n\n";
        out.write(s.getBytes(StandardCharsets.UTF_8));
    }

    private static void json(HttpExchange x, Object o) throws IOException {
        send(x, 200, "application/json; charset=utf-8", JSON.writeValueAsBytes(o));
    }

    private static void notFound(HttpExchange x) throws IOException {
        send(x, 404, "text/plain", "not found\n".getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange x, int code, String type, byte[] body) throws IOException {
        x.getResponseHeaders().set("Content-Type", type);
        x.getResponseHeaders().set("Cache-Control", "no-store");
        if (x.getRequestMethod().equals("HEAD")) {
            x.sendResponseHeaders(code, -1);
            return;
        }
        x.sendResponseHeaders(code, body.length == 0 ? -1 : body.length);
        x.getResponseBody().write(body);
    }

    private static void resource(HttpExchange x, String name) throws IOException {
        try (InputStream in = WebServer.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                notFound(x);
                return;
            }
            send(x, 200, type(name), in.readAllBytes());
        }
    }

    private static String type(String name) {
        if (name.endsWith(".html")) {
            return "text/html; charset=utf-8";
        } else if (name.endsWith(".js") || name.endsWith(".mjs")) {
            return "text/javascript; charset=utf-8";
        } else if (name.endsWith(".css")) {
            return "text/css; charset=utf-8";
        } else if (name.endsWith(".svg")) {
            return "image/svg+xml";
        }
        return "application/octet-stream";
    }

    private static Map<String, String> query(URI u) {
        Map<String, String> m = new LinkedHashMap<>();
        String raw = u.getRawQuery();
        if (raw == null) {
            return m;
        }
        for (String kv : raw.split("&")) {
            int eq = kv.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? kv : kv.substring(0, eq), StandardCharsets.UTF_8);
            String val = eq < 0 ? "" : URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8);
            m.put(k, val);
        }
        return m;
    }

    private static long parseLong(String s) {
        try {
            return s == null ? 0 : Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    @Override
    public void close() {
        closing = true;
        http.stop(0);
        pool.shutdownNow();
    }
}
