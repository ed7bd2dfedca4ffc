package org.ibtwin.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.PortId;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.PortCounter;
import org.ibtwin.model.PortState;
import org.junit.jupiter.api.Test;

class LabTest {

    @Test
    void bringsTheTwinUpWithOurSmAndStopsItsPartsLastAddedFirst() {
        Fabric f = FabricFiles.loadDefault();
        List<String> closed = new ArrayList<>();
        Lab lab = Lab.of(f).start();
        assertThat(lab.bringUp().subnetUp()).isTrue();
        String host = f.cas().get(3).name();
        assertThat(lab.twin().portState(host, 1)).isEqualTo(PortState.ACTIVE);
        lab.add(() -> closed.add("traffic"));
        lab.add(() -> closed.add("tool"));
        var tool = lab.attachTool(host);
        byte[] ni = new MadQuery(tool).smpGet(PortId.directed(new int[] {0}), AttributeIds.NODE_INFO, 0);
        assertThat(SmpAttributes.NODE_INFO.get(ni, 0, "Guid")).isEqualTo(f.cas().get(3).guid());
        lab.close();
        assertThat(closed).containsExactly("tool", "traffic");
        lab.close();   // once only
        assertThat(closed).hasSize(2);
    }

    @Test
    void aSyncedFabricIsNotRewrittenByTheNextRead() {
        Fabric f = FabricFiles.loadDefault();
        try (Lab lab = Lab.of(f).start()) {
            assertThat(lab.bringUp().subnetUp()).isTrue();
            String host = f.cas().get(3).name();
            Fabric before = lab.synced();
            int links = before.links().size();
            assertThat(before.byName(host).port(1).state()).isEqualTo(PortState.ACTIVE);
            lab.twin().setCounter(host, 1, PortCounter.SYMBOL_ERROR, 7);
            lab.twin().linkDown(host, 1);
            Fabric after = lab.synced();
            // the later read sees the pulled cable and the counter ...
            assertThat(after.byName(host).port(1).state()).isEqualTo(PortState.DOWN);
            assertThat(after.byName(host).port(1).counter(PortCounter.SYMBOL_ERROR)).isEqualTo(7);
            // ... and the reader still holding the earlier one (the web view's doctor, a what-if) is not changed
            assertThat(after).isNotSameAs(before);
            assertThat(before.links()).hasSize(links);
            assertThat(before.byName(host).port(1).state()).isEqualTo(PortState.ACTIVE);
            assertThat(before.byName(host).port(1).remote()).isNotNull();
            assertThat(before.byName(host).port(1).counter(PortCounter.SYMBOL_ERROR)).isZero();
        }
    }

    @Test
    void withoutAnSmThereIsNoneToBringItUp() {
        Fabric f = FabricFiles.loadDefault();
        try (Lab lab = Lab.of(f).noSm().start()) {
            assertThat(lab.sm()).isNull();
            assertThatThrownBy(lab::bringUp).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void anUnknownNodeIsRefusedAndNothingIsLeftAttached() {
        Fabric f = FabricFiles.loadDefault();
        assertThatThrownBy(() -> LabTransport.open(f, "the default fabric", "no-such-node"))
                .isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> Lab.of(f).smAt("no-such-node").start()).isInstanceOf(RuntimeException.class);
    }
}
