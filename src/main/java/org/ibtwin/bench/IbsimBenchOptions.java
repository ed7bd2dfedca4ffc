package org.ibtwin.bench;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Where the benches that run real ibsim with {@code --ibsim} put it and its files: {@code --port} (the lowest UDP
 * control port; the simulators take free ranges of 11 up to +90) and {@code --keep} (a directory for the
 * topologies and logs, else a scratch one deleted after the run). One option set for {@code bench sm} and
 * {@code bench reroute}.
 */
public final class IbsimBenchOptions {
    @Option(names = "--port", description = "With --ibsim: lowest UDP port for the simulators (they take ranges of 11 "
            + "up to +90; default: ${DEFAULT-VALUE}).")
    int port = 17700;

    @Option(names = "--keep", paramLabel = "<dir>", description = "With --ibsim: keep topologies and logs there.")
    Path keep;

    public int port() {
        return port;
    }

    public Path keep() {
        return keep;
    }
}
