package org.ibtwin.sm.sa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.ibtwin.format.FormatException;
import org.ibtwin.format.QosPolicyFile;
import org.junit.jupiter.api.Test;

/** qos-policy.conf: the qos-ulps and qos-levels subset, the SLs it gives, warnings and syntax errors by file:line. */
class QosPolicyTest {
    private static final String POLICY = """
            # an admin's policy
            port-groups
                port-group
                    name: Storage
                    port-guid: 0x10
                end-port-group
            end-port-groups

            qos-levels
                qos-level
                    name: DEFAULT
                    use: best effort
                    sl: 12
                    mtu-limit: 4
                end-qos-level
            end-qos-levels

            qos-ulps
                sdp, port-num 5000           : 2
                sdp                          : 3
                iser                         : 5
                rds                          : 4
                any, service-id 0x1000000000000abc, 0x20-0x2f : 6
                ipoib, pkey 0x0010           : 7
                ipoib                        : 8
                srp, target-port-guid 0x0002c90300000003 : 9
                any, source-port-guid 0x44   : 10
                nfs                          : 1
                any, qos-class 3             : 1
            end-qos-ulps
            """;

    @Test
    void theUlpsAndTheDefaultLevelGiveTheSlsInTheFilesOrder() {
        QosPolicyFile f = QosPolicyFile.parse(POLICY, "qos-policy.conf");
        assertThat(f.warnings()).containsExactly(
                "qos-policy.conf:2: section port-groups is not implemented by ibtwin; ignored",
                "qos-policy.conf:14: qos-level mtu-limit is not implemented by ibtwin; ignored",
                "qos-policy.conf:28: unknown ULP nfs; rule ignored",
                "qos-policy.conf:29: unknown criterion qos-class; rule ignored");
        assertThat(f.ulps()).hasSize(9);
        QosPolicy p = QosPolicy.of(f);
        long a = 0x11;
        long b = 0x22;
        assertThat(p.sl(a, b, null, null)).isEqualTo(12);             // nothing matches: the DEFAULT level
        assertThat(p.sl(a, b, 0x10000L + 5000, null)).isEqualTo(2);
        assertThat(p.sl(a, b, 0x10001L, null)).isEqualTo(3);
        assertThat(p.sl(a, b, 0x1060000L + 3260, null)).isEqualTo(5);  // iser before rds
        assertThat(p.sl(a, b, 0x1060000L + 18634, null)).isEqualTo(4);
        assertThat(p.sl(a, b, 0x1060001L, null)).isEqualTo(12);       // another RDMA CM port
        assertThat(p.sl(a, b, 0x1000000000000abcL, null)).isEqualTo(6);
        assertThat(p.sl(a, b, 0x25L, null)).isEqualTo(6);
        assertThat(p.sl(a, b, 0x30L, null)).isEqualTo(12);
        assertThat(p.sl(a, b, null, 0x8010)).isEqualTo(7);            // the membership bit does not count
        assertThat(p.sl(a, b, null, 0xffff)).isEqualTo(8);            // ipoib: the Default partition
        assertThat(p.sl(a, 0x0002c90300000003L, null, null)).isEqualTo(9);
        assertThat(p.sl(0x44, b, null, null)).isEqualTo(10);
        // the ULPs' default beats the DEFAULT level
        QosPolicy q = QosPolicy.of(QosPolicyFile.parse(POLICY.replace("end-qos-ulps", "default : 0\nend-qos-ulps"),
                "p"));
        assertThat(q.sl(a, b, null, null)).isZero();
        // no default at all: the policy says nothing
        assertThat(QosPolicy.of(QosPolicyFile.parse("qos-ulps\n  sdp : 3\nend-qos-ulps\n", "p")).sl(a, b, null,
                null)).isEqualTo(-1);
    }

    @Test
    void badSyntaxIsOneLineNamingFileAndLine() {
        String[][] cases = {
            {"qos-ulps\n  sdp 3\nend-qos-ulps\n", "q.conf:2: expected 'ulp[, criterion values] : sl', got 'sdp 3'"},
            {"qos-ulps\n  default : 16\nend-qos-ulps\n", "q.conf:2: sl 16: not 0..15"},
            {"qos-ulps\n  any, pkey 0xzz : 1\nend-qos-ulps\n", "q.conf:2: pkey '0xzz': not a number"},
            {"\nqos-ulps\n  default : 1\n", "q.conf:2: qos-ulps: no end-qos-ulps"},
            {"qos-levels\n qos-level\n  sl: 1\n end-qos-level\nend-qos-levels\n", "q.conf:2: qos-level without a name"},
            {"qos-match-rules\n", "q.conf:1: qos-match-rules: no end-qos-match-rules"},
            {"sdp : 3\n", "q.conf:1: expected a section (qos-ulps, qos-levels, ...), got 'sdp : 3'"},
        };
        for (String[] c : cases) {
            assertThatThrownBy(() -> QosPolicyFile.parse(c[0], "q.conf")).as(c[0]).isInstanceOf(FormatException.class)
                    .hasMessage(c[1]);
        }
    }
}
