package org.ibtwin.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.ibtwin.doctor.Finding;
import org.ibtwin.doctor.Report;
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

    @SuppressWarnings("unchecked")
    private static Map<String, Object> last(Monitor m) {
        return (Map<String, Object>) m.doctorStatus().get("last");
    }

    @Test
    void theDoctorsReportIsReusedWhileNothingItReadsChangedAndMadeAgainAfterALinkWentDown() {
        try (Lab lab = Lab.of(FabricFiles.loadDefault()).start()) {
            assertThat(lab.bringUp().subnetUp()).isTrue();
            Monitor m = new Monitor(WebSource.of(lab, "default", "default.yaml"), new Events(), 100);
            Report first = m.doctor();
            int all = first.checked().size();
            assertThat(last(m)).containsEntry("ran", all).containsEntry("reused", 0);
            assertThat(m.doctor()).isSameAs(first);   // the same state: not examined again
            assertThat(m.doctorStatus()).containsEntry("ready", true).containsEntry("examining", false);
            // read again: a fabric of its own, every check answered from the last examination
            m.refresh();
            Report again = m.doctor();
            assertThat(again).isNotSameAs(first);
            assertThat(last(m)).containsEntry("ran", 0).containsEntry("reused", all);
            assertThat(again.toJson()).isEqualTo(first.toJson());
            // traffic moves the data counters (no check reads them) and perhaps the wait (T22 reads it)
            TrafficEngine e = lab.traffic();
            e.start(TrafficPattern.parse(List.of("shift")), TrafficEngine.DEFAULT_SIZE);
            e.advance(0.5);
            e.halt();
            m.refresh();
            m.doctor();
            assertThat((Integer) last(m).get("ran")).isLessThanOrEqualTo(1);
            // a link down: every check runs again and finds it
            lab.twin().linkDown("leaf01", 21);
            m.refresh();
            Report down = m.doctor();
            assertThat(last(m)).containsEntry("ran", all);
            assertThat(down.findings()).extracting(Finding::id).contains("T01");
            assertThat(first.findings()).extracting(Finding::id).doesNotContain("T01");
            m.close();
        }
    }

    @Test
    void aDoctorHeldBackAnswersDetailsWithTheLastReportAndShowsItsProgress() throws Exception {
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        org.ibtwin.doctor.FabricState s = org.ibtwin.doctor.FabricState.of(FabricFiles.loadDefault(), "default",
                "default.yaml");
        try (Monitor m = new Monitor(WebSource.fixed("default", s), new Events(), 100, st -> {
            try {
                go.await();
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
            return org.ibtwin.doctor.Doctor.examine(st, new org.ibtwin.doctor.Thresholds());
        })) {
            assertThat(m.doctor(50)).isNull();   // none made yet, and the details do not wait for it
            assertThat(m.doctorStatus()).containsEntry("ready", false).containsEntry("examining", true)
                    .containsEntry("reportVersion", -1L);
            go.countDown();
            Report r = m.doctor();
            assertThat(r.findings()).extracting(Finding::id).contains("T04", "T07", "T14");
            assertThat(m.doctor(0)).isSameAs(r);
            assertThat(m.doctorStatus()).containsEntry("ready", true).containsEntry("reportVersion", 1L);
        }
    }
}
