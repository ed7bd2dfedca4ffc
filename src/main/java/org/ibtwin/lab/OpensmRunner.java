package org.ibtwin.lab;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.ibtwin.sim.IbsimServer;

/**
 * Real OpenSM as the SM of a lab's twin: one {@code opensm -o} (a heavy sweep, then exit) as a client of the twin's
 * ibsim endpoint under {@code LD_PRELOAD=libumad2sim.so}. The command line runs it through the benches' OpenSM
 * harness ({@code bench.OpensmHarness}); the lab only says where and with what.
 */
public interface OpensmRunner {
    /** One run: its exit status (-1: stopped at the timeout) and its log. */
    record Run(int exit, String log) {
        /** Whether OpenSM brought the subnet up ("SUBNET UP" in its log) and exited cleanly. */
        public boolean up() {
            return exit == 0 && log.contains("SUBNET UP");
        }

        /** The first ERR line of the log (or the exit status), for a one-line message. */
        public String why() {
            for (String l : log.split("\n")) {
                if (l.contains(" ERR ")) {
                    return l.strip();
                }
            }
            return exit == -1 ? "still running at the timeout" : exit != 0 ? "exit status " + exit
                    : "no SUBNET UP in its log";
        }
    }

    /**
     * {@code opensm -o -R routing args...} attached at node {@code simHost} of {@code server}'s fabric, its cache
     * (guid2lid), log ({@code opensm.log}) and temporary files in {@code dir} (which exists).
     */
    Run once(IbsimServer server, String simHost, Path dir, String routing, List<String> args) throws IOException;

    /** The first UDP control port for endpoints where ibsim's local mode cannot be served (each takes 11). */
    int basePort();
}
