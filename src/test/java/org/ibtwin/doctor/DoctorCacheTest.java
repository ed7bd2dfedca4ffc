package org.ibtwin.doctor;

import static org.assertj.core.api.Assertions.assertThat;

import org.ibtwin.format.FabricFiles;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.PortCounter;
import org.junit.jupiter.api.Test;

/**
 * {@link Doctor.Cache}: a check's findings are reused while what it reads is unchanged, and it runs again after a
 * change it reads; the report is always the one {@link Doctor#examine(FabricState, Thresholds)} makes afresh.
 */
class DoctorCacheTest {

    /** The node the doctor calls {@code host} (its description's first word). */
    private static org.ibtwin.model.Node node(Fabric f, String host) {
        return f.nodes().stream().filter(n -> n.description().split(" ")[0].equals(host)).findFirst().orElseThrow();
    }

    private final Doctor.Cache cache = new Doctor.Cache(new Thresholds());

    private static FabricState state(Fabric f) {
        return FabricState.of(f, "default", "default.yaml");
    }

    /** Examines {@code f} with the cache, checks the report against a fresh one, returns the checks run. */
    private int examine(Fabric f) {
        Report cached = Doctor.examine(state(f), cache);
        Report fresh = Doctor.examine(state(f), new Thresholds());
        assertThat(cached.toJson()).isEqualTo(fresh.toJson());
        int ran = (Integer) cache.progress().get("ran");
        assertThat(ran + (Integer) cache.progress().get("reused")).isEqualTo(fresh.checked().size());
        assertThat(cache.progress().get("done")).isEqualTo(Doctor.checks().size());
        return ran;
    }

    @Test
    void aCopyOfTheSameFabricIsAnsweredFromTheCache() {
        Fabric f = FabricFiles.loadDefault();
        assertThat(examine(f)).isEqualTo(Doctor.examine(state(f), new Thresholds()).checked().size());
        assertThat(examine(f.copy())).isZero();
        assertThat(examine(f.copy())).isZero();
    }

    @Test
    void countersNoCheckReadsChangeNothingAndAWaitCounterRerunsOnlyItsCheck() {
        Fabric f = FabricFiles.loadDefault();
        // a port read with a counter set is read with all of them (the counter checks see its zeros): traffic ran
        node(f, "leaf01").port(21).setCounter(PortCounter.XMIT_DATA, 1_000L);
        node(f, "node001").port(1).setCounter(PortCounter.RCV_PKTS, 10);
        examine(f);
        Fabric traffic = f.copy();
        node(traffic, "leaf01").port(21).setCounter(PortCounter.XMIT_DATA, 123_456_789L);
        node(traffic, "node001").port(1).setCounter(PortCounter.RCV_PKTS, 4242);
        assertThat(examine(traffic)).isZero();
        // PortXmitWait over its threshold: T22 (the one check that reads it) runs again and finds it
        Fabric congested = traffic.copy();
        node(congested, "leaf01").port(21).setCounter(PortCounter.XMIT_WAIT, 900_000L);
        assertThat(examine(congested)).isEqualTo(1);
        assertThat(Doctor.examine(state(congested), cache).findings()).anySatisfy(x -> {
            assertThat(x.id()).isEqualTo("T22");
            assertThat(x.where()).isEqualTo("leaf01/21");
        });
        // the wait rising further changes T22's evidence: it runs again, the others stay
        Fabric more = congested.copy();
        node(more, "leaf01").port(21).setCounter(PortCounter.XMIT_WAIT, 950_000L);
        assertThat(examine(more)).isEqualTo(1);
        // symbol errors: T16 runs, T22 (unchanged wait) does not
        Fabric errors = more.copy();
        node(errors, "leaf01").port(21).setCounter(PortCounter.SYMBOL_ERROR, 5_000L);
        assertThat(examine(errors)).isEqualTo(1);
        assertThat(Doctor.examine(state(errors), cache).findings()).extracting(Finding::id).contains("T16", "T22");
    }

    @Test
    void aPulledCableOrAChangedPortRerunsTheChecks() {
        Fabric f = FabricFiles.loadDefault();
        int all = examine(f);
        Fabric pulled = f.copy();
        pulled.disconnect(node(pulled, "leaf01").port(21).link());
        assertThat(examine(pulled)).isEqualTo(all);
        assertThat(examine(pulled.copy())).isZero();
        Fabric lid = pulled.copy();
        node(lid, "node001").port(1).setLid(4000);
        assertThat(examine(lid)).isEqualTo(all);
        Fabric described = lid.copy();
        node(described, "node002").setDescription("node002 mlx5_9");
        assertThat(examine(described)).isEqualTo(all);
    }
}
