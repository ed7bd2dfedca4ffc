package org.ibtwin.cli;

import java.util.Optional;
import org.ibtwin.diag.Addresses;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.diag.QueryException;
import org.ibtwin.diag.Resolver;
import org.ibtwin.mad.PortId;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * How the tools after smpquery read a destination argument: a LID (-L, the default), a directed path (-D) or a
 * port GUID asked of the SA (-G), the last of them given winning, as in ibdiag_common's option loop.
 */
final class Destinations {
    enum Type { LID, DIRECT, GUID }

    private Destinations() {
    }

    /** The address type the options chose: the last of {@code lidOpt}, "-D" and "-G" matched. */
    static Type type(CommandSpec spec, String lidOpt) {
        Type t = Type.LID;
        if (spec.commandLine().getParseResult() == null) {
            return t;
        }
        for (OptionSpec o : spec.commandLine().getParseResult().matchedOptions()) {
            String n = o.shortestName();
            if (n.equals(lidOpt)) {
                t = Type.LID;
            } else if (n.equals("-D")) {
                t = Type.DIRECT;
            } else if (n.equals("-G")) {
                t = Type.GUID;
            }
        }
        return t;
    }

    /**
     * {@code arg} resolved; empty when it cannot be (the caller prints the tool's "can't resolve destination port").
     * A failed SA query prints libibmad's warnings through {@code cmd}.
     */
    static Optional<PortId> resolve(DiagCommand cmd, MadQuery q, Type type, String arg) {
        return switch (type) {
            case LID -> Addresses.lid(arg);
            case DIRECT -> Addresses.directed(arg);
            case GUID -> {
                var g = Addresses.guid(arg);
                if (g.isEmpty()) {
                    yield Optional.empty();
                }
                try {
                    yield Optional.of(Resolver.guid(q, g.getAsLong(), cmd.smLid()));
                } catch (QueryException e) {
                    cmd.warnQuery(e);
                    cmd.warn("ib_path_query_via: sa call path_query failed");
                    yield Optional.empty();
                }
            }
        };
    }
}
