package org.ibtwin.gen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.ibtwin.model.CableKind;
import org.ibtwin.model.DeviceCatalog;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.HostFacts;
import org.ibtwin.model.Link;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Node;
import org.ibtwin.model.PcieGen;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class FatTreeTest {

    private static Node byDescription(Fabric f, String description) {
        return f.nodes().stream().filter(n -> n.description().equals(description)).findFirst()
                .orElseThrow(() -> new AssertionError("no node " + description));
    }

    @Test
    void twoLevelsRadix8With16Hosts() {
        FatTreeSpec spec = FatTreeSpec.of(2, 8, 16);
        Fabric f = FatTree.build(spec);

        assertThat(FatTree.plan(spec)).isEqualTo(new FatTree.Plan(4, 4, 0, 4, 2, 0));
        assertThat(f.switches()).hasSize(6);
        assertThat(f.cas()).hasSize(16);
        assertThat(f.links()).hasSize(32);
        assertThat(f.switches()).extracting(Node::description)
                .containsExactly("leaf01", "leaf02", "leaf03", "leaf04", "spine01", "spine02");
        // 4 uplinks per leaf over 2 spines: 2 parallel links each
        Node spine1 = byDescription(f, "spine01");
        Node spine2 = byDescription(f, "spine02");
        for (String leaf : List.of("leaf01", "leaf02", "leaf03", "leaf04")) {
            assertThat(TreeChecks.switchNeighbours(byDescription(f, leaf))).isEqualTo(Map.of(spine1, 2, spine2, 2));
        }
        // hosts fill leaf ports 1..4 in order; uplinks on 5..8
        assertThat(byDescription(f, "node001 mlx5_0").port(1).remote().toString())
                .isEqualTo(byDescription(f, "leaf01").name() + "[1]");
        assertThat(byDescription(f, "node005 mlx5_0").port(1).remote().node().description()).isEqualTo("leaf02");
        assertThat(byDescription(f, "node016 mlx5_0").port(1).remote().number()).isEqualTo(4);
        assertThat(byDescription(f, "leaf01").port(5).remote().node()).isEqualTo(spine1);
        assertThat(byDescription(f, "leaf01").port(6).remote().node()).isEqualTo(spine2);
        TreeChecks.checkAll(spec, f);
        TreeChecks.checkBalancedWhenFull(spec, f);
    }

    @Test
    void fullTwoLevelRadix8HasOneLinkFromEveryLeafToEverySpine() {
        FatTreeSpec spec = FatTreeSpec.of(2, 8, 32);
        Fabric f = FatTree.build(spec);
        assertThat(FatTree.plan(spec)).isEqualTo(new FatTree.Plan(4, 4, 0, 8, 4, 0));
        for (Node leaf : TreeChecks.atLevel(f, 1)) {
            assertThat(TreeChecks.switchNeighbours(leaf)).hasSize(4).containsOnlyKeys(TreeChecks.atLevel(f, 2))
                    .allSatisfy((s, n) -> assertThat(n).isEqualTo(1));
        }
        for (Node spine : TreeChecks.atLevel(f, 2)) {
            assertThat(TreeChecks.downLinks(spine)).isEqualTo(8);
        }
        TreeChecks.checkAll(spec, f);
        TreeChecks.checkBalancedWhenFull(spec, f);
    }

    @Test
    void hdrRadix40With64Hosts() {
        FatTreeSpec spec = FatTreeSpec.of(2, 40, 64);
        Fabric f = FatTree.build(spec);

        assertThat(f.switches()).hasSize(6);
        assertThat(f.cas()).hasSize(64);
        assertThat(f.links()).hasSize(64 + 4 * 20);
        assertThat(f.switches()).allSatisfy(s -> {
            assertThat(s.numPorts()).isEqualTo(40);
            assertThat(s.deviceId()).isEqualTo(DeviceCatalog.QUANTUM.deviceId());
            assertThat(s.vendorId()).isEqualTo(DeviceCatalog.MELLANOX);
            assertThat(s.enhancedPort0()).isTrue();
        });
        assertThat(f.cas()).allSatisfy(ca -> {
            assertThat(ca.deviceId()).isEqualTo(DeviceCatalog.CONNECTX6.deviceId());
            assertThat(ca.hostFacts()).isEqualTo(HostFacts.DEFAULT.withPcie(PcieGen.GEN4, 16));
        });
        assertThat(f.cas().get(0).description()).isEqualTo("node001 mlx5_0");
        assertThat(f.cas().get(63).description()).isEqualTo("node064 mlx5_0");
        TreeChecks.checkAll(spec, f);
    }

    @Test
    void twoToOneBlockingAtRadix40() {
        FatTreeSpec spec = FatTreeSpec.of(2, 40, 104).withBlocking(2);
        assertThat(spec.downPorts()).isEqualTo(26);
        assertThat(spec.upPorts()).isEqualTo(14);
        Fabric f = FatTree.build(spec);
        assertThat(FatTree.plan(spec)).isEqualTo(new FatTree.Plan(26, 14, 0, 4, 2, 0));
        assertThat(f.switches()).hasSize(6);
        assertThat(f.links()).hasSize(104 + 4 * 14);
        for (Node leaf : TreeChecks.atLevel(f, 1)) {
            assertThat(TreeChecks.downLinks(leaf)).isEqualTo(26);
            assertThat(TreeChecks.upLinks(leaf)).isEqualTo(14);
        }
        TreeChecks.checkAll(spec, f);
    }

    @Test
    void threeToOneBlockingAtEdrRadix36() {
        FatTreeSpec spec = FatTreeSpec.of(2, 36, 108).withBlocking(3).withSpeed(LinkSpeed.EDR);
        Fabric f = FatTree.build(spec);
        assertThat(FatTree.plan(spec)).isEqualTo(new FatTree.Plan(27, 9, 0, 4, 1, 0));
        assertThat(f.links()).hasSize(108 + 36);
        assertThat(f.switches()).allSatisfy(
                s -> assertThat(s.deviceId()).isEqualTo(DeviceCatalog.SWITCHIB.deviceId()));
        assertThat(f.cas()).allSatisfy(ca -> {
            assertThat(ca.deviceId()).isEqualTo(DeviceCatalog.CONNECTX4.deviceId());
            assertThat(ca.hostFacts().pcieGen()).isEqualTo(PcieGen.GEN3);
        });
        TreeChecks.checkAll(spec, f);
    }

    @Test
    void threeLevelsRadix8With64Hosts() {
        FatTreeSpec spec = FatTreeSpec.of(3, 8, 64);
        Fabric f = FatTree.build(spec);

        assertThat(FatTree.plan(spec)).isEqualTo(new FatTree.Plan(4, 4, 4, 16, 16, 8));
        assertThat(f.switches()).hasSize(40);
        assertThat(f.cas()).hasSize(64);
        assertThat(f.links()).hasSize(64 + 64 + 64);
        assertThat(f.switches().get(0).description()).isEqualTo("pod01-leaf01");
        assertThat(f.switches().get(4).description()).isEqualTo("pod01-spine01");
        assertThat(f.switches().get(31).description()).isEqualTo("pod04-spine04");
        assertThat(f.switches().get(39).description()).isEqualTo("core08");
        // each pod spine: 4 links down, 4 up to the 2 cores of its group
        Node spine = byDescription(f, "pod02-spine03");
        assertThat(TreeChecks.downLinks(spine)).isEqualTo(4);
        assertThat(TreeChecks.switchNeighbours(spine)).containsEntry(byDescription(f, "core05"), 2)
                .containsEntry(byDescription(f, "core06"), 2);
        TreeChecks.checkAll(spec, f);
        TreeChecks.checkBalancedWhenFull(spec, f);
    }

    @Test
    void fullThreeLevelRadix8() {
        FatTreeSpec spec = FatTreeSpec.of(3, 8, 128);
        assertThat(spec.maxHosts()).isEqualTo(128);
        Fabric f = FatTree.build(spec);
        assertThat(FatTree.plan(spec)).isEqualTo(new FatTree.Plan(4, 4, 8, 32, 32, 16));
        for (Node core : TreeChecks.atLevel(f, 3)) {
            assertThat(TreeChecks.downLinks(core)).isEqualTo(8);
            assertThat(TreeChecks.switchNeighbours(core)).hasSize(8);
        }
        TreeChecks.checkAll(spec, f);
        TreeChecks.checkBalancedWhenFull(spec, f);
    }

    @Test
    void threeLevelsWithBlockingAtTheLeaves() {
        FatTreeSpec spec = FatTreeSpec.of(3, 12, 100).withBlocking(2);
        Fabric f = FatTree.build(spec);
        // d 8, u 4; pods of 6 leaves x 4 spines; 13 leaves in 3 pods; 4 core groups of ceil(3*6/12) = 2
        assertThat(FatTree.plan(spec)).isEqualTo(new FatTree.Plan(8, 4, 3, 13, 12, 8));
        assertThat(f.links()).hasSize(100 + 13 * 4 + 12 * 6);
        assertThat(byDescription(f, "pod03-leaf01")).isNotNull();
        assertThat(f.nodes()).noneMatch(n -> n.description().equals("pod03-leaf02"));
        TreeChecks.checkAll(spec, f);
    }

    @Test
    void threeLevelsRadix40With8000Hosts() {
        FatTreeSpec spec = FatTreeSpec.of(3, 40, 8000);
        Fabric f = FatTree.build(spec);
        assertThat(FatTree.plan(spec)).isEqualTo(new FatTree.Plan(20, 20, 20, 400, 400, 200));
        assertThat(f.switches()).hasSize(1000);
        assertThat(f.cas()).hasSize(8000);
        assertThat(f.links()).hasSize(24_000);
        assertThat(f.cas().get(7999).description()).isEqualTo("node8000 mlx5_0");
        TreeChecks.checkAll(spec, f);
        TreeChecks.checkBalancedWhenFull(spec, f);
    }

    @Test
    void smallestTrees() {
        FatTreeSpec two = FatTreeSpec.of(2, 8, 1);
        Fabric f2 = FatTree.build(two);
        assertThat(FatTree.plan(two)).isEqualTo(new FatTree.Plan(4, 4, 0, 1, 1, 0));
        assertThat(f2.links()).hasSize(1 + 4);
        TreeChecks.checkAll(two, f2);

        FatTreeSpec three = FatTreeSpec.of(3, 8, 3);
        Fabric f3 = FatTree.build(three);
        assertThat(FatTree.plan(three)).isEqualTo(new FatTree.Plan(4, 4, 1, 1, 4, 4));
        assertThat(f3.links()).hasSize(3 + 4 + 16);
        TreeChecks.checkAll(three, f3);
    }

    @Test
    void capacities() {
        assertThat(FatTreeSpec.maxHosts(2, 40, 1)).isEqualTo(800);
        assertThat(FatTreeSpec.maxHosts(3, 40, 1)).isEqualTo(16_000);
        assertThat(FatTreeSpec.maxHosts(3, 64, 1)).isEqualTo(65_536);
        assertThat(FatTreeSpec.maxHosts(2, 36, 2)).isEqualTo(36 * 24);
        // 50,000 hosts fit a non-blocking 3-level NDR tree of Quantum-2 switches
        FatTreeSpec big = FatTreeSpec.of(3, 64, 50_000).withSpeed(LinkSpeed.NDR);
        assertThat(FatTree.plan(big)).isEqualTo(new FatTree.Plan(32, 32, 49, 1563, 1568, 800));
    }

    @Test
    void guidsAndNames() {
        Fabric f = FatTree.build(FatTreeSpec.of(2, 8, 5));
        Node leaf1 = byDescription(f, "leaf01");
        Node host1 = byDescription(f, "node001 mlx5_0");
        assertThat(leaf1.guid()).isEqualTo(0x0002c90380000000L);
        assertThat(leaf1.name()).isEqualTo("S-0002c90380000000");
        assertThat(leaf1.port(3).guid()).isEqualTo(leaf1.guid());
        assertThat(byDescription(f, "spine01").guid()).isEqualTo(0x0002c90380000002L);
        assertThat(host1.guid()).isEqualTo(0x0002c90300000002L);
        assertThat(host1.port(1).guid()).isEqualTo(0x0002c90300000003L);
        assertThat(host1.name()).isEqualTo("H-0002c90300000002");
        assertThat(byDescription(f, "node002 mlx5_0").guid()).isEqualTo(0x0002c90300000004L);

        Fabric g = FatTree.build(FatTreeSpec.of(2, 8, 5).withGuidBase(0x7cfe900300000000L)
                .withHostNamePattern("gpu-%04d"));
        assertThat(byDescription(g, "gpu-0001 mlx5_0").guid()).isEqualTo(0x7cfe900300000002L);
        assertThat(byDescription(g, "leaf01").name()).isEqualTo("S-7cfe900380000000");
    }

    @Test
    void cables() {
        Fabric f = FatTree.build(FatTreeSpec.of(3, 8, 20).withSpeed(LinkSpeed.NDR));
        for (Link l : f.links()) {
            int top = Math.max(TreeChecks.level(l.a().node()), TreeChecks.level(l.b().node()));
            assertThat(l.cable().maxSpeed()).isEqualTo(LinkSpeed.NDR);
            switch (top) {
                case 1 -> {
                    assertThat(l.cable().kind()).isEqualTo(CableKind.PASSIVE_COPPER);
                    assertThat(l.cable().lengthMetres()).isEqualTo(2);
                }
                case 2 -> {
                    assertThat(l.cable().kind()).isEqualTo(CableKind.ACTIVE_OPTICAL);
                    assertThat(l.cable().lengthMetres()).isEqualTo(10);
                }
                default -> {
                    assertThat(l.cable().kind()).isEqualTo(CableKind.ACTIVE_OPTICAL);
                    assertThat(l.cable().lengthMetres()).isEqualTo(30);
                }
            }
        }
        assertThat(f.cas()).allSatisfy(ca -> assertThat(ca.hostFacts().pcieGen()).isEqualTo(PcieGen.GEN5));
    }

    @ParameterizedTest
    @CsvSource({"SDR, mthca0, GEN3", "QDR, mlx4_0, GEN3", "FDR10, mlx4_0, GEN3", "FDR, mlx4_0, GEN3",
        "EDR, mlx5_0, GEN3", "HDR, mlx5_0, GEN4", "NDR, mlx5_0, GEN5"})
    void everyCatalogSpeedTrainsAtThatSpeed(LinkSpeed speed, String port, PcieGen pcie) {
        FatTreeSpec spec = FatTreeSpec.of(3, 8, 40).withSpeed(speed);
        Fabric f = FatTree.build(spec);
        assertThat(f.cas().get(0).description()).isEqualTo("node001 " + port);
        assertThat(f.cas().get(0).hostFacts().pcieGen()).isEqualTo(pcie);
        TreeChecks.checkAll(spec, f);
    }

    static Stream<Arguments> invalidSpecs() {
        return Stream.of(
                bad("levels", () -> FatTreeSpec.of(4, 8, 8)),
                bad("levels", () -> FatTreeSpec.of(1, 8, 8)),
                bad("radix", () -> FatTreeSpec.of(2, 41, 8)),
                bad("radix", () -> FatTreeSpec.of(2, 2, 1)),
                bad("radix", () -> FatTreeSpec.of(2, 256, 8)),
                bad("hosts must be at least 1", () -> FatTreeSpec.of(2, 8, 0)),
                bad("hosts: 801 do not fit a 2-level fat tree of radix 40 at 1:1 (at most 800); use 3 levels",
                        () -> FatTreeSpec.of(2, 40, 801)),
                bad("hosts: 16001", () -> FatTreeSpec.of(3, 40, 16_001)),
                bad("hosts: 49", () -> FatTreeSpec.of(2, 8, 8).withBlocking(3).withHosts(49)),
                bad("blocking", () -> FatTreeSpec.of(2, 8, 8).withBlocking(0)),
                bad("blocking", () -> FatTreeSpec.of(2, 8, 8).withBlocking(8)),
                bad("speed is required", () -> FatTreeSpec.of(2, 8, 8).withSpeed(null)),
                bad("speed: the device catalog has no switch that runs XDR",
                        () -> FatTreeSpec.of(2, 8, 8).withSpeed(LinkSpeed.XDR)),
                bad("hostNamePattern", () -> FatTreeSpec.of(2, 8, 8).withHostNamePattern("node")),
                bad("hostNamePattern", () -> FatTreeSpec.of(2, 8, 8).withHostNamePattern("node%s%s")),
                bad("hostNamePattern", () -> FatTreeSpec.of(2, 8, 8).withHostNamePattern("")),
                bad("hostNamePattern", () -> FatTreeSpec.of(2, 8, 8).withHostNamePattern("x".repeat(60) + "%d")),
                bad("guidBase", () -> FatTreeSpec.of(2, 8, 8).withGuidBase(-1L)));
    }

    private static Arguments bad(String message, Supplier<FatTreeSpec> spec) {
        return Arguments.of(message, spec);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidSpecs")
    void invalidSpecsAreRejectedNamingTheField(String message, Supplier<FatTreeSpec> spec) {
        assertThatThrownBy(spec::get).isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith(message);
    }

    @ParameterizedTest
    @CsvSource({"1:1, 1", "2:1, 2", "' 3 : 1 ', 3", "2, 2"})
    void parsesBlocking(String text, int expected) {
        assertThat(FatTreeSpec.parseBlocking(text)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1:2", "0:1", "x", "", "2:1:1", "-1"})
    void rejectsBadBlocking(String text) {
        assertThatThrownBy(() -> FatTreeSpec.parseBlocking(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("blocking");
    }
}
