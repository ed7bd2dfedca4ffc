package org.ibtwin.doctor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.ibtwin.doctor.checks.CableRatingCheck;
import org.ibtwin.doctor.checks.CongestionCheck;
import org.ibtwin.doctor.checks.DriverCheck;
import org.ibtwin.doctor.checks.DuplicateIdCheck;
import org.ibtwin.doctor.checks.ErrorCounterCheck;
import org.ibtwin.doctor.checks.EthernetCheck;
import org.ibtwin.doctor.checks.FirmwareCheck;
import org.ibtwin.doctor.checks.FlappingCheck;
import org.ibtwin.doctor.checks.GpuDirectCheck;
import org.ibtwin.doctor.checks.IpoibDatagramCheck;
import org.ibtwin.doctor.checks.IpoibMixedCheck;
import org.ibtwin.doctor.checks.LinkDownCheck;
import org.ibtwin.doctor.checks.MissingUplinkCheck;
import org.ibtwin.doctor.checks.NumaCheck;
import org.ibtwin.doctor.checks.PartitionCheck;
import org.ibtwin.doctor.checks.PathMtuCheck;
import org.ibtwin.doctor.checks.PcieSlotCheck;
import org.ibtwin.doctor.checks.SpeedCheck;
import org.ibtwin.doctor.checks.StandbySmCheck;
import org.ibtwin.doctor.checks.SubnetManagerCheck;
import org.ibtwin.doctor.checks.WidthCheck;
import org.ibtwin.model.NaturalOrder;

/** Runs every check on a state and orders what they find, most severe first. */
public final class Doctor {
    private Doctor() {
    }

    /** Every check, in id order. */
    public static List<Check> checks() {
        return List.of(new LinkDownCheck(), new DriverCheck(), new EthernetCheck(), new SpeedCheck(), new WidthCheck(),
                new CableRatingCheck(), new PcieSlotCheck(), new SubnetManagerCheck(), new StandbySmCheck(),
                new PartitionCheck(), new PathMtuCheck(), new IpoibMixedCheck(), new IpoibDatagramCheck(),
                new ErrorCounterCheck(), new NumaCheck(), new GpuDirectCheck(), new DuplicateIdCheck(),
                new FirmwareCheck(), new CongestionCheck(), new MissingUplinkCheck(), new FlappingCheck());
    }

    /** Report order: severity, then id, then where. */
    public static final Comparator<Finding> ORDER = Comparator.comparing(Finding::severity)
            .thenComparing(Finding::id).thenComparing(Finding::where, NaturalOrder::compare);

    public static Report examine(FabricState state, Thresholds thresholds) {
        return examine(state, thresholds, null);
    }

    /**
     * Examines {@code state} with the cache's thresholds, taking each check's findings from {@code cache} when what
     * it reads ({@link Check#counters}, and everything but the counters) is as when it last ran.
     */
    public static Report examine(FabricState state, Cache cache) {
        synchronized (cache) {
            return examine(state, cache.thresholds, cache);
        }
    }

    private static Report examine(FabricState state, Thresholds thresholds, Cache cache) {
        List<Finding> findings = new ArrayList<>();
        List<Report.Skipped> skipped = new ArrayList<>();
        List<String> ran = new ArrayList<>();
        List<Check> all = checks();
        StateDigest digest = cache == null ? null : cache.begin(state, all.size());
        for (Check c : all) {
            String why = thresholds.suppressed(c.id()) ? "suppressed in the thresholds file" : c.skipReason(state);
            if (why != null) {
                skipped.add(new Report.Skipped(c.id(), c.name(), why));
            } else {
                ran.add(c.id());
                findings.addAll(cache == null ? c.run(state, thresholds) : cache.run(c, state, digest));
            }
            if (cache != null) {
                cache.done++;
            }
        }
        findings.sort(ORDER);
        return new Report(state.source(), state.shape(), findings, ran, skipped, state.read(), state.ignored());
    }

    /**
     * Each check's last findings, kept with the digest of what it read ({@link StateDigest}): a live fabric read
     * again and again, where traffic moves only the data and wait counters, has most checks answered from here.
     * One examination at a time; its progress ({@link #progress}) may be read from any thread.
     */
    public static final class Cache {
        private final Thresholds thresholds;
        private final java.util.Map<String, long[]> keys = new java.util.HashMap<>();
        private final java.util.Map<String, List<Finding>> kept = new java.util.HashMap<>();
        private volatile int total;
        private volatile int done;
        private volatile String running = "";
        private volatile int reused;
        private volatile int rerun;

        public Cache(Thresholds thresholds) {
            this.thresholds = thresholds;
        }

        private StateDigest begin(FabricState s, int checks) {
            total = checks;
            done = 0;
            reused = 0;
            rerun = 0;
            running = "digest";
            return StateDigest.of(s);
        }

        private List<Finding> run(Check c, FabricState s, StateDigest d) {
            long key = d.of(c.counters());
            long[] was = keys.get(c.id());
            if (was != null && was[0] == key) {
                reused++;
                return kept.get(c.id());
            }
            running = c.id();
            List<Finding> f = List.copyOf(c.run(s, thresholds));
            keys.put(c.id(), new long[] {key});
            kept.put(c.id(), f);
            rerun++;
            return f;
        }

        /**
         * The examination under way or last made: {@code checks} (of all), {@code done}, {@code check} (the one
         * running, or "digest" while the state is digested), {@code reused} and {@code ran} (checks answered
         * from the cache, and run).
         */
        public java.util.Map<String, Object> progress() {
            java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("checks", total);
            m.put("done", done);
            m.put("check", done < total ? running : "");
            m.put("reused", reused);
            m.put("ran", rerun);
            return m;
        }
    }
}
