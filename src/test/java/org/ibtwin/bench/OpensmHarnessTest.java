package org.ibtwin.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bench's sizes, ibsim limits, LID count and endpoints; the runs themselves are a benchmark (BenchOpensmInteropTest
 * runs a tiny one).
 */
class OpensmHarnessTest {
    @Test
    void maxIsTheLargestThreeLevelTreeTheUnicastLidsHold() {
        FatTreeSpec s = OpensmHarness.spec("max");
        int switches = FatTree.plan(s).switches();
        assertThat(s.levels()).isEqualTo(3);
        assertThat(s.radix()).isEqualTo(64);
        assertThat(s.hosts() + switches).isLessThanOrEqualTo(0xBFFF);
        assertThat(s.hosts() + 1 + FatTree.plan(s.withHosts(s.hosts() + 1)).switches()).isGreaterThan(0xBFFF);
        assertThat(s.hosts()).isEqualTo(45_551);
    }

    @Test
    void sizesPickTheSmallestRadixFromForty() {
        assertThat(OpensmHarness.spec("128")).satisfies(s -> {
            assertThat(s.levels()).isEqualTo(2);
            assertThat(s.radix()).isEqualTo(40);
        });
        assertThat(OpensmHarness.spec("1024").levels()).isEqualTo(3);
        assertThat(OpensmHarness.spec("16384").radix()).isEqualTo(42);
        assertThatThrownBy(() -> OpensmHarness.spec("lots")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OpensmHarness.spec("49000")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unicast LIDs");
    }

    @Test
    void ibsimLimitsGrowWithTheFabricAndNeverShrink() {
        assertThat(OpensmHarness.limits(FatTree.build(FatTreeSpec.of(2, 8, 16))))
                .containsExactly("-N", "2048", "-S", "256", "-P", "13312");
        Fabric big = FatTree.build(OpensmHarness.spec("32768"));
        assertThat(OpensmHarness.limits(big)).contains("-L", "49152");
    }

    @Test
    void casWithALidComeFromGuid2lid(@TempDir Path dir) throws Exception {
        Fabric f = FatTree.build(FatTreeSpec.of(2, 8, 4));
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            long guid = f.cas().get(i).port(1).guid();
            sb.append(String.format("0x%016x 0x%04x 0x%04x%n%n", guid, i + 10, i + 10));
        }
        sb.append(String.format("0x%016x 0x0000 0x0000%n", f.cas().get(3).port(1).guid()));
        Path g = Files.writeString(dir.resolve("guid2lid"), sb);
        assertThat(OpensmHarness.casWithLid(f, g)).isEqualTo(3);
        assertThat(OpensmHarness.casWithLid(f, dir.resolve("none"))).isZero();
    }

    @Test
    void anEndpointPointsLibumad2simAtOneModeOnly() {
        java.util.Map<String, String> env = new java.util.HashMap<>(java.util.Map.of("IBSIM_SOCKNAME", "stale",
                "IBSIM_SERVER_NAME", "10.0.0.1", "IBSIM_SERVER_PORT", "1", "SIM_HOST", "node1"));
        OpensmHarness.Endpoint.udp(17700).pointAt(env);
        assertThat(env).containsOnly(java.util.Map.entry("IBSIM_SERVER_NAME", "127.0.0.1"),
                java.util.Map.entry("IBSIM_SERVER_PORT", "17700"), java.util.Map.entry("SIM_HOST", "node1"));
        OpensmHarness.Endpoint.local("bench-1").pointAt(env);
        assertThat(env).containsOnly(java.util.Map.entry("IBSIM_SOCKNAME", "bench-1"),
                java.util.Map.entry("SIM_HOST", "node1"));
    }
}
