package org.ibtwin.sm.routing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The routing engines by name, and the chain {@code -R ftree,updn,minhop} makes of them: each engine in turn until
 * one routes the fabric. As in OpenSM, minhop ends every chain: when all the named engines decline, it routes.
 */
public final class RoutingEngines {

    /** What engines may need besides the graph. */
    public record Options(List<Long> rootGuids) {
        public Options {
            rootGuids = rootGuids == null ? List.of() : List.copyOf(rootGuids);
        }

        public static Options none() {
            return new Options(List.of());
        }
    }

    private static final Map<String, Function<Options, RoutingEngine>> REGISTRY = new LinkedHashMap<>();

    static {
        REGISTRY.put(MinHopEngine.NAME, o -> new MinHopEngine());
        REGISTRY.put(UpDownEngine.NAME, o -> new UpDownEngine(o.rootGuids()));
        REGISTRY.put(FatTreeEngine.NAME, o -> new FatTreeEngine());
        REGISTRY.put(DorEngine.NAME, o -> new DorEngine());
        REGISTRY.put(DfssspEngine.NAME, o -> new DfssspEngine());
    }

    private RoutingEngines() {
    }

    /** The names of every engine, in registry order. */
    public static List<String> names() {
        return List.copyOf(REGISTRY.keySet());
    }

    /** The engine called {@code name}. */
    public static RoutingEngine create(String name, Options options) {
        Function<Options, RoutingEngine> f = REGISTRY.get(name.toLowerCase(Locale.ROOT));
        if (f == null) {
            throw new IllegalArgumentException("unknown routing engine \"" + name + "\" (known: "
                    + String.join(", ", REGISTRY.keySet()) + ")");
        }
        return f.apply(options);
    }

    /** The chain a comma-separated list names ("ftree,updn,minhop"); minhop is appended when it is not there. */
    public static Chain chain(String list, Options options) {
        List<RoutingEngine> engines = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (String part : (list == null || list.isBlank() ? MinHopEngine.NAME : list).split(",")) {
            String name = part.strip().toLowerCase(Locale.ROOT);
            if (name.isEmpty() || seen.contains(name)) {
                continue;
            }
            engines.add(create(name, options));
            seen.add(name);
        }
        if (!seen.contains(MinHopEngine.NAME)) {
            engines.add(new MinHopEngine());
        }
        return new Chain(engines);
    }

    /** Engines tried in order. */
    public static final class Chain {
        private final List<RoutingEngine> engines;

        Chain(List<RoutingEngine> engines) {
            this.engines = List.copyOf(engines);
        }

        public List<String> names() {
            return engines.stream().map(RoutingEngine::name).toList();
        }

        /** What the chain did: the engine that routed, its LFTs and detail, and who declined and why. */
        public record Result(String engine, Lfts lfts, String detail, List<String> declined,
                             RoutingCheck.Layers layers, Reroute reroute) {
        }

        public Result route(SwitchGraph g) {
            List<String> declined = new ArrayList<>();
            for (RoutingEngine e : engines) {
                RoutingEngine.Outcome o = e.route(g);
                if (o instanceof RoutingEngine.Routed r) {
                    return new Result(e.name(), r.lfts(), r.detail(), declined, r.layers(), r.reroute());
                }
                declined.add(e.name() + ": " + ((RoutingEngine.Declined) o).reason());
            }
            throw new IllegalStateException("minhop declined");   // it never does
        }
    }
}
