package org.ibtwin.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.lab.Lab;
import org.ibtwin.lab.TrafficEngine;
import org.ibtwin.lab.TrafficPattern;
import org.junit.jupiter.api.Test;

/** The monitor over a running lab: every read is a fabric of its own, the rates are still taken between reads. */
class MonitorTest {
    @Test
    @SuppressWarnings("unchecked")
    void aRunningLabsTrafficIsRatedBetweenTwoReads() {
        try (Lab lab = Lab.of(FabricFiles.loadDefault()).start()) {
            assertThat(lab.bringUp().subnetUp()).isTrue();
            Monitor m = new Monitor(WebSource.of(lab, "default", "default.yaml"), new Events(), 100);
            TrafficEngine e = lab.traffic();
            e.start(TrafficPattern.parse(List.of("shift")), TrafficEngine.DEFAULT_SIZE);
            m.refresh();
            e.advance(0.5);
            m.refresh();
            List<Map<String, Object>> tiers = (List<Map<String, Object>>) m.traffic().get("tiers");
            assertThat(tiers).isNotEmpty();
            assertThat(tiers).anySatisfy(t -> assertThat((Double) t.get("txShare")).isGreaterThan(0.1));
            assertThat((List<?>) m.traffic().get("top")).isNotEmpty();
            assertThat(m.view().ports()).anySatisfy(p -> assertThat(p.txGbps()).isGreaterThan(1));
        }
    }
}
