package org.ibtwin.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import org.ibtwin.diag.QueryException;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Sources;
import org.ibtwin.transport.MadTransportException;
import org.ibtwin.web.Snapshots;
import org.ibtwin.web.WebSource;
import org.ibtwin.web.WhatIfs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtwin web}: the web view of any fabric source, read-only: a fabric file or snapshot, a directory of saved
 * tool outputs, or a scan over a transport (the state read once, as {@code ibtwin doctor} reads it).
 */
@Command(name = "web", mixinStandardHelpOptions = true,
        description = "Serve the web view (map, tables, doctor; JSON under /api/) of a fabric source on loopback.",
        footer = {"", "The source, as for ibtwin doctor: a fabric file (ibnetdiscover dump, ibsim net file, fabric",
            "description or snapshot; default: the built-in fabric), --from DIR (saved outputs of the real tools),",
            "or --ibsim HOST:PORT (scanned once over MADs). A running twin's live view: ibtwin up --web, ibtwin sim",
            "--web. Runs until killed. A page only reads, except that the what-if page may ask for a rehearsal, which",
            "runs on copies (the source is never changed). Exit codes: 2 bad input, 3 the live fabric could not be",
            "read."})
public final class WebCommand extends CliCommand {

    @Parameters(index = "0", arity = "0..1", paramLabel = "<fabric>", description = "Fabric file (default: built-in).")
    String fabric;

    @Option(names = "--from", paramLabel = "DIR", description = "A directory of saved tool outputs.")
    Path from;

    @Mixin
    TransportOptions transport;

    @Option(names = "--port", paramLabel = "<port>", defaultValue = WebView.DEFAULT_PORT,
            description = "TCP port on loopback (default: ${DEFAULT-VALUE}; 0: any free port).")
    int port;

    @Option(names = "--what-if", paramLabel = "FILE", description = "A saved what-if report (ibtwin what-if ... "
            + "--json > FILE) to show on the what-if page; repeatable.")
    java.util.List<Path> whatIf = new java.util.ArrayList<>();

    @Option(names = "--snapshots", paramLabel = "DIR", description = "A directory of snapshots (ibtwin snapshot "
            + "save) to compare on the snapshots page.")
    Path snapshotDir;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = out();
        PrintWriter err = err();
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port: port " + port + " is not in 0..65535");
        }
        if (from != null) {
            FileArgs.readable("--from", from);
        }
        WhatIfs whatIfs = new WhatIfs(true);
        for (Path f : whatIf) {
            whatIfs.load(f);
        }
        Snapshots snapshots = snapshotDir == null ? new Snapshots(java.util.List.of()) : Snapshots.in(snapshotDir);
        boolean offline = fabric != null || from != null;
        FabricState state;
        Sources.Live live;
        try {
            live = transport.live(offline);
            state = Sources.open(fabric, from, live, null, line -> {
                err.println("ibtwin web: " + line);
                err.flush();
            });
        } catch (MadTransportException | QueryException e) {
            err.println("ibtwin web: cannot read " + transport.target() + ": " + e.getMessage());
            return DoctorCommand.UNREACHABLE;
        }
        String name = from != null ? from + " (saved outputs)" : live != null ? live.name() + " (scanned once)"
                : state.source();
        try (WebView view = WebView.serve(WebSource.fixed(name, state), port, "--port", whatIfs,
                snapshots)) {
            out.println("ibtwin web: " + name + ": " + state.shape());
            view.announce(out);
            Thread.currentThread().join();
        }
        return 0;
    }
}
