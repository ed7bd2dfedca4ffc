package org.ibtwin.sm;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How the SM runs; the defaults are OpenSM's.
 *
 * @param maxSmps        SMPs in flight at once (opensm --maxsmps, 4)
 * @param timeout        how long each attempt waits for its answer (opensm -t, 200 ms)
 * @param retries        attempts after the first (opensm --retries, 3)
 * @param lmc            LIDs per end port as a power of two, 0..7 (opensm -l, 0)
 * @param routingEngines the engine chain, "ftree,updn,minhop" (opensm -R, minhop)
 * @param rootGuids      switch GUIDs for updn's roots (opensm -a); empty: found
 * @param guid2lid       the guid2lid file, or null to keep the database in memory only
 * @param priority       SMInfo priority, 0..15 (opensm -p, 0)
 * @param reassignLids   give every port a new LID (opensm -r)
 * @param maxOpVls       the most operational VLs to set, as PortInfo OperationalVLs encodes it (5: VL0-14)
 * @param subnetTimeout  PortInfo SubnetTimeout to set on end ports (0x12)
 * @param sweepInterval  time between sweeps; zero: no sweeps after the first (opensm -s, 10 s)
 * @param checkRoutes    follow every programmed route after routing and report failures (slow on big fabrics)
 */
public record SmConfig(int maxSmps, Duration timeout, int retries, int lmc, String routingEngines,
                       List<Long> rootGuids, Path guid2lid, int priority, boolean reassignLids, int maxOpVls,
                       int subnetTimeout, Duration sweepInterval, boolean checkRoutes) {

    public SmConfig {
        if (maxSmps < 1) {
            throw new IllegalArgumentException("at least one SMP must be allowed in flight (--maxsmps), not "
                    + maxSmps);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the SMP timeout must be positive, not " + timeout.toMillis() + " ms");
        }
        if (retries < 0) {
            throw new IllegalArgumentException("retries must be 0 or more, not " + retries);
        }
        if (lmc < 0 || lmc > 7) {
            throw new IllegalArgumentException("LMC must be 0..7, not " + lmc);
        }
        if (priority < 0 || priority > 15) {
            throw new IllegalArgumentException("priority must be 0..15, not " + priority);
        }
        if (maxOpVls < 1 || maxOpVls > 5) {
            throw new IllegalArgumentException("max operational VLs must be 1..5 (VL0 .. VL0-14), not " + maxOpVls);
        }
        if (sweepInterval.isNegative()) {
            throw new IllegalArgumentException("the sweep interval cannot be negative");
        }
        rootGuids = rootGuids == null ? List.of() : List.copyOf(rootGuids);
        routingEngines = routingEngines == null || routingEngines.isBlank() ? "minhop" : routingEngines;
    }

    /** OpenSM's defaults. */
    public static SmConfig defaults() {
        return new SmConfig(4, Duration.ofMillis(200), 3, 0, "minhop", List.of(), null, 0, false, 5, 0x12,
                Duration.ofSeconds(10), false);
    }

    public SmConfig withMaxSmps(int n) {
        return new SmConfig(n, timeout, retries, lmc, routingEngines, rootGuids, guid2lid, priority, reassignLids,
                maxOpVls, subnetTimeout, sweepInterval, checkRoutes);
    }

    public SmConfig withTimeout(Duration t, int r) {
        return new SmConfig(maxSmps, t, r, lmc, routingEngines, rootGuids, guid2lid, priority, reassignLids,
                maxOpVls, subnetTimeout, sweepInterval, checkRoutes);
    }

    public SmConfig withLmc(int l) {
        return new SmConfig(maxSmps, timeout, retries, l, routingEngines, rootGuids, guid2lid, priority,
                reassignLids, maxOpVls, subnetTimeout, sweepInterval, checkRoutes);
    }

    public SmConfig withRouting(String engines, List<Long> roots) {
        return new SmConfig(maxSmps, timeout, retries, lmc, engines, roots, guid2lid, priority, reassignLids,
                maxOpVls, subnetTimeout, sweepInterval, checkRoutes);
    }

    public SmConfig withGuid2lid(Path file) {
        return new SmConfig(maxSmps, timeout, retries, lmc, routingEngines, rootGuids, file, priority, reassignLids,
                maxOpVls, subnetTimeout, sweepInterval, checkRoutes);
    }

    public SmConfig withPriority(int p) {
        return new SmConfig(maxSmps, timeout, retries, lmc, routingEngines, rootGuids, guid2lid, p, reassignLids,
                maxOpVls, subnetTimeout, sweepInterval, checkRoutes);
    }

    public SmConfig withReassignLids(boolean r) {
        return new SmConfig(maxSmps, timeout, retries, lmc, routingEngines, rootGuids, guid2lid, priority, r,
                maxOpVls, subnetTimeout, sweepInterval, checkRoutes);
    }

    public SmConfig withSweepInterval(Duration d) {
        return new SmConfig(maxSmps, timeout, retries, lmc, routingEngines, rootGuids, guid2lid, priority,
                reassignLids, maxOpVls, subnetTimeout, d, checkRoutes);
    }

    public SmConfig withCheckRoutes(boolean c) {
        return new SmConfig(maxSmps, timeout, retries, lmc, routingEngines, rootGuids, guid2lid, priority,
                reassignLids, maxOpVls, subnetTimeout, sweepInterval, c);
    }
}
