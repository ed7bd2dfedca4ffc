package org.ibtwin.doctor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.gen.Shapes;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.junit.jupiter.api.Test;

/** The built-in default fabric has three planted problems; generated fabrics have none. */
class DefaultFabricDoctorTest {

    static Report examine(Fabric f) {
        return Doctor.examine(FabricState.of(f, "test", "test.yaml"), new Thresholds());
    }

    @Test
    void defaultFabricShowsExactlyThePlantedProblems() {
        Report r = Doctor.examine(FabricState.of(FabricFiles.loadDefault(), "default", "default.yaml"),
                new Thresholds());
        System.out.println(r.toText());
        assertThat(r.findings()).extracting(Finding::id, Finding::where).containsExactly(
                org.assertj.core.groups.Tuple.tuple("T04", "leaf02/33 <-> spine01/17"),
                org.assertj.core.groups.Tuple.tuple("T14", "node033"),
                org.assertj.core.groups.Tuple.tuple("T07", "node017"));
        assertThat(r.findings().get(0).severity()).isEqualTo(Severity.ERROR);
        assertThat(r.findings().get(2).severity()).isEqualTo(Severity.WARNING);
        assertThat(r.exitCode(Severity.ERROR)).isEqualTo(1);
    }

    @Test
    void healthyGeneratedFabricsGiveNoFinding() {
        for (Fabric f : List.of(FatTree.build(FatTreeSpec.of(2, 40, 60).withSpeed(LinkSpeed.HDR)),
                FatTree.build(FatTreeSpec.of(3, 16, 300).withSpeed(LinkSpeed.EDR)),
                FatTree.build(FatTreeSpec.of(2, 36, 100).withSpeed(LinkSpeed.NDR)),
                Shapes.backToBack(LinkSpeed.HDR), Shapes.singleSwitch(12, 36, LinkSpeed.EDR))) {
            Report r = examine(f);
            assertThat(r.findings()).as(r.toText()).isEmpty();
            assertThat(r.exitCode(Severity.INFO)).isZero();
        }
    }
}
