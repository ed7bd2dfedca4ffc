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
        List<Finding> findings = new ArrayList<>();
        List<Report.Skipped> skipped = new ArrayList<>();
        List<String> ran = new ArrayList<>();
        for (Check c : checks()) {
            if (thresholds.suppressed(c.id())) {
                skipped.add(new Report.Skipped(c.id(), c.name(), "suppressed in the thresholds file"));
                continue;
            }
            String why = c.skipReason(state);
            if (why != null) {
                skipped.add(new Report.Skipped(c.id(), c.name(), why));
                continue;
            }
            ran.add(c.id());
            findings.addAll(c.run(state, thresholds));
        }
        findings.sort(ORDER);
        return new Report(state.source(), state.shape(), findings, ran, skipped, state.read(), state.ignored());
    }
}
