package org.ibtwin.sm;

import static org.assertj.core.api.Assertions.assertThat;

import org.ibtwin.format.FabricFiles;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.junit.jupiter.api.Test;

class SubnetManagerTest {

    @Test
    void bringsUpTheDefaultFabric() {
        try (TwinFabric f = new TwinFabric(FabricFiles.loadDefault())) {
            SubnetManager sm = f.sm(SmConfig.defaults().withCheckRoutes(true));
            SweepReport r = sm.sweep();
            System.out.println(r);
            assertThat(r.subnetUp()).isTrue();
            assertThat(f.notActive()).isEmpty();
            assertThat(f.withoutLid()).isEmpty();
            assertThat(f.unreachableCaPairs(5)).isEmpty();
        }
    }

    @Test
    void bringsUpAThreeLevelFatTree() {
        Fabric fabric = FatTree.build(FatTreeSpec.of(3, 8, 64));
        try (TwinFabric f = new TwinFabric(fabric)) {
            SubnetManager sm = f.sm(SmConfig.defaults().withCheckRoutes(true));
            SweepReport r = sm.sweep();
            System.out.println(r);
            assertThat(r.subnetUp()).isTrue();
            assertThat(f.notActive()).isEmpty();
            assertThat(f.withoutLid()).isEmpty();
            assertThat(f.unreachableCaPairs(5)).isEmpty();
        }
    }
}
