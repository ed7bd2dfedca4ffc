package org.ibtwin.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The tables the pages show and export (devices, ports, links, cables, partitions, SMs): each a list of columns
 * over a {@link FabricView}'s rows. Filtering is one function ({@link #filter}) for the page and the CSV alike: every
 * word of the query must appear in some column of a row (case ignored); {@code column=value} matches that column
 * exactly and {@code column~text} that column in part.
 */
public final class Tables {
    /** A column: its name and how to read it from a row. */
    record Column<R>(String name, Function<R, Object> value) {
    }

    /** A table over one kind of row. */
    record Table<R>(String name, Function<FabricView, List<R>> rows, List<Column<R>> columns) {
        List<String> header() {
            List<String> h = new ArrayList<>();
            for (Column<R> c : columns) {
                h.add(c.name());
            }
            return h;
        }

        List<Object> values(R row) {
            List<Object> v = new ArrayList<>(columns.size());
            for (Column<R> c : columns) {
                Object o = c.value().apply(row);
                v.add(o == null ? "" : o);
            }
            return v;
        }
    }

    static final Map<String, Table<?>> ALL = new LinkedHashMap<>();

    static {
        add(new Table<FabricView.NodeRow>("devices", FabricView::nodes, List.of(
                new Column<>("name", FabricView.NodeRow::name),
                new Column<>("type", FabricView.NodeRow::type),
                new Column<>("tier", FabricView.NodeRow::tierName),
                new Column<>("guid", FabricView.NodeRow::guid),
                new Column<>("lids", FabricView.NodeRow::lids),
                new Column<>("ports", FabricView.NodeRow::ports),
                new Column<>("rack", FabricView.NodeRow::rackName),
                new Column<>("description", FabricView.NodeRow::description),
                new Column<>("id", FabricView.NodeRow::id))));
        add(new Table<FabricView.PortRow>("ports", FabricView::ports, List.of(
                new Column<>("node", FabricView.PortRow::node),
                new Column<>("port", FabricView.PortRow::port),
                new Column<>("lid", FabricView.PortRow::lid),
                new Column<>("state", FabricView.PortRow::state),
                new Column<>("phys", FabricView.PortRow::phys),
                new Column<>("width", FabricView.PortRow::width),
                new Column<>("speed", FabricView.PortRow::speed),
                new Column<>("couldBe", FabricView.PortRow::couldBe),
                new Column<>("peer", FabricView.PortRow::peer),
                new Column<>("txGbps", r -> String.format(Locale.ROOT, "%.2f", r.txGbps())),
                new Column<>("xmitWaitPerSecond", r -> String.format(Locale.ROOT, "%.0f", r.waitPerSecond())),
                new Column<>("symbolErrors", r -> r.counters().get("SymbolErrorCounter")),
                new Column<>("linkDowned", r -> r.counters().get("LinkDownedCounter")),
                new Column<>("rcvErrors", r -> r.counters().get("PortRcvErrors")),
                new Column<>("xmitDiscards", r -> r.counters().get("PortXmitDiscards")),
                new Column<>("xmitWait", r -> r.counters().get("PortXmitWait")),
                new Column<>("guid", FabricView.PortRow::guid),
                new Column<>("id", FabricView.PortRow::id))));
        add(new Table<FabricView.LinkRow>("links", FabricView::links, List.of(
                new Column<>("link", FabricView.LinkRow::name),
                new Column<>("health", FabricView.LinkRow::health),
                new Column<>("width", FabricView.LinkRow::width),
                new Column<>("speed", FabricView.LinkRow::speed),
                new Column<>("couldBe", FabricView.LinkRow::couldBe),
                new Column<>("gbps", FabricView.LinkRow::gbps),
                new Column<>("why", r -> String.join("; ", r.why())),
                new Column<>("id", FabricView.LinkRow::id))));
        add(new Table<FabricView.CableRow>("cables", FabricView::cables, List.of(
                new Column<>("link", FabricView.CableRow::link),
                new Column<>("kind", FabricView.CableRow::kind),
                new Column<>("lengthMetres", FabricView.CableRow::lengthMetres),
                new Column<>("maxSpeed", FabricView.CableRow::maxSpeed),
                new Column<>("maxWidth", FabricView.CableRow::maxWidth),
                new Column<>("id", FabricView.CableRow::linkId))));
        add(new Table<FabricView.PartitionRow>("partitions", FabricView::partitions, List.of(
                new Column<>("pkey", FabricView.PartitionRow::pkey),
                new Column<>("full", FabricView.PartitionRow::full),
                new Column<>("limited", FabricView.PartitionRow::limited),
                new Column<>("fullMembers", r -> String.join(" ", r.fullMembers())),
                new Column<>("limitedMembers", r -> String.join(" ", r.limitedMembers())))));
        add(new Table<FabricView.SmRow>("sms", FabricView::sms, List.of(
                new Column<>("port", FabricView.SmRow::port),
                new Column<>("guid", FabricView.SmRow::guid),
                new Column<>("lid", FabricView.SmRow::lid),
                new Column<>("priority", FabricView.SmRow::priority),
                new Column<>("state", FabricView.SmRow::state),
                new Column<>("source", FabricView.SmRow::source))));
    }

    private Tables() {
    }

    private static void add(Table<?> t) {
        ALL.put(t.name(), t);
    }

    /** A table's rows that match {@code query}, as values in column order; the header first. */
    static List<List<Object>> filter(Table<?> t, FabricView v, String query) {
        return filterTyped(t, v, query);
    }

    private static <R> List<List<Object>> filterTyped(Table<R> t, FabricView v, String query) {
        List<List<Object>> out = new ArrayList<>();
        out.add(new ArrayList<>(t.header()));
        String[] words = query == null || query.isBlank() ? new String[0]
                : query.strip().toLowerCase(Locale.ROOT).split("\\s+");
        List<String> header = t.header();
        for (R r : t.rows().apply(v)) {
            List<Object> vals = t.values(r);
            if (matches(header, vals, words)) {
                out.add(vals);
            }
        }
        return out;
    }

    private static boolean matches(List<String> header, List<Object> vals, String[] words) {
        for (String w : words) {
            int eq = w.indexOf('=');
            int part = w.indexOf('~');
            int op = eq > 0 ? eq : part;
            if (op > 0 && header.stream().anyMatch(h -> h.equalsIgnoreCase(w.substring(0, op)))) {
                String col = w.substring(0, op);
                String want = w.substring(op + 1);
                int i = 0;
                while (!header.get(i).equalsIgnoreCase(col)) {
                    i++;
                }
                String have = vals.get(i).toString().toLowerCase(Locale.ROOT);
                if (op == eq ? !have.equals(want) : !have.contains(want)) {
                    return false;
                }
                continue;
            }
            boolean any = false;
            for (Object o : vals) {
                if (o.toString().toLowerCase(Locale.ROOT).contains(w)) {
                    any = true;
                    break;
                }
            }
            if (!any) {
                return false;
            }
        }
        return true;
    }

    /** RFC 4180 CSV of rows (the header first): fields with a comma, quote or line break are quoted. */
    static String csv(List<List<Object>> rows) {
        StringBuilder sb = new StringBuilder();
        for (List<Object> r : rows) {
            for (int i = 0; i < r.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                String s = r.get(i).toString();
                if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
                    sb.append('"').append(s.replace("\"", "\"\"")).append('"');
                } else {
                    sb.append(s);
                }
            }
            sb.append("\r\n");
        }
        return sb.toString();
    }
}
