package org.ibtwin.cli;

import java.io.StringWriter;
import java.nio.file.Path;
import org.ibtwin.fixture.TwinFabric;
import org.ibtwin.format.FabricFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the tests of ibtwin's commands share: the command line run in this JVM ({@link Cli}), what it printed kept in
 * {@link #out} and {@link #err} for the checks, a directory of the test's own, and the diag tools pointed at an
 * in-process fabric for a class's tests and back at the real transports after them.
 */
abstract class CliTest {
    protected final StringWriter out = new StringWriter();
    protected final StringWriter err = new StringWriter();

    @TempDir
    protected Path dir;

    /** {@code ibtwin args}, its exit code; {@link #out} and {@link #err} hold this run's output alone. */
    protected int run(String... args) {
        return Cli.executeAfresh(out, err, args);
    }

    /** {@code ibtwin args}, its exit code; what it printed is added to what {@link #out} and {@link #err} hold. */
    protected int runAppending(String... args) {
        return Cli.execute(out, err, args);
    }

    /**
     * The built-in default fabric's twin, swept once by our SM, with the diag tools attached at its CA number
     * {@code ca} until the class's tests end.
     */
    protected static TwinFabric diagToolsOnDefaultTwin(int ca) {
        TwinFabric up = TwinFabric.up(FabricFiles.loadDefault());
        String host = up.fabric.cas().get(ca).name();
        DiagCommand.opener = t -> up.tool(host);
        return up;
    }

    @AfterAll
    static void realTransports() {
        DiagCommand.opener = TransportOptions::open;
    }
}
