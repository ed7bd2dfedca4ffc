package org.ibtwin.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.ibtwin.diag.Addresses;
import org.ibtwin.diag.NetCache;
import org.ibtwin.diag.NetDiscovery;
import org.ibtwin.diag.NetFabric;
import org.ibtwin.format.NodeNameMap;
import org.ibtwin.transport.MadTransport;
import picocli.CommandLine.Mixin;

/**
 * What the fabric-scanning tools share: their options ({@link ScanOptions}), the scan itself
 * ({@link NetDiscovery} over the attached transport, libibnetdisc's error lines on stderr), cache files, the node
 * name map, and --json.
 */
abstract class ScanCommand extends DiagCommand {
    @Mixin
    ScanOptions scan;

    /** The tool's -d when it means debug (ibnetdiscover), false where -d is something else. */
    boolean debug() {
        return false;
    }

    @Override
    DiagOptions diag() {
        return scan.toDiag(debug());
    }

    /** The node name map: --node-name-map, else the tools' default file when it exists. */
    NodeNameMap names() {
        return NodeNameMap.open(scan.nodeNameMap);
    }

    /** libibnetdisc's config from the options. */
    NetDiscovery.Config config() {
        NetDiscovery.Config c = scanConfig();
        if (scan.outstanding != null) {
            long n = Addresses.unsigned(scan.outstanding);
            if (n > 0) {
                c = c.withMaxSmps((int) Math.min(n, 1 << 16));
            }
        }
        return c;
    }

    /**
     * Scans the fabric from the attached port ({@code from}: a directed route for a partial scan, else empty).
     *
     * @throws IbError "discover failed" when the scan cannot start
     */
    NetFabric discover(byte[] from, int maxHops, Consumer<String> progress) {
        NetDiscovery.Config c = config().withMaxHops(maxHops).withProgress(progress);
        try (MadTransport t = attach()) {
            return discover(t, from, c, "discover failed\n");
        }
    }

    /** A cache file, or null (with the reason on stderr) when it cannot be loaded. */
    NetFabric load(String file) {
        try {
            return NetCache.read(Path.of(file));
        } catch (IOException | NetCache.BadCache e) {
            spec.commandLine().getErr().println("ibnetdisc: " + file + ": " + (e instanceof NetCache.BadCache
                    ? e.getMessage() : "cannot read (" + e.getMessage() + ")"));
            return null;
        }
    }

    /** {@code value} as indented JSON into the output. */
    void json(Object value) {
        try {
            out.append(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(value))
                    .append('\n');
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
