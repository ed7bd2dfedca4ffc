package org.ibtwin.sm.sa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.ibtwin.format.FormatException;
import org.ibtwin.format.QosPolicyFile;
import org.ibtwin.model.NodeType;
import org.junit.jupiter.api.Test;

/**
 * qos-policy.conf: port groups, qos-levels, match rules and qos-ulps, what they give a path and in which order, and
 * every syntax error or undefined name as one line naming file and line.
 */
class QosPolicyTest {
    private static final String ULPS = """
            # an admin's policy
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
            end-qos-ulps
            """;

    /**
     * Four end ports: 0 the SM's CA port (GUID 0x10, "sm HCA-1" port 1), 1 a CA port in partition 0x0010 too
     * ("vs1 HCA-1" port 1), 2 a switch's port 0 (0x30), 3 a router port (0x40, "gw" port 2).
     */
    private static final QosPolicy.Ports PORTS = new QosPolicy.Ports() {
        @Override
        public long guid(int port) {
            return 0x10L * (port + 1);
        }

        @Override
        public NodeType nodeType(int port) {
            return switch (port) {
                case 2 -> NodeType.SWITCH;
                case 3 -> NodeType.ROUTER;
                default -> NodeType.CA;
            };
        }

        @Override
        public String nodeDescription(int port) {
            return new String[] {"sm HCA-1", "vs1 HCA-1", "sw1", "gw"}[port];
        }

        @Override
        public int portNumber(int port) {
            return new int[] {1, 1, 0, 2}[port];
        }

        @Override
        public boolean self(int port) {
            return port == 0;
        }

        @Override
        public int[] pkeys(int port) {
            return port == 1 ? new int[] {0xffff, 0x8010, 0} : new int[] {0xffff, 0};
        }
    };

    @Test
    void theUlpsAndTheDefaultLevelGiveTheSlsInTheFilesOrder() {
        QosPolicyFile f = QosPolicyFile.parse(ULPS, "qos-policy.conf");
        assertThat(f.warnings()).isEmpty();
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
        // as OpenSM: the DEFAULT level beats the ULPs' default, wherever either is in the file
        QosPolicy q = QosPolicy.of(QosPolicyFile.parse(ULPS.replace("end-qos-ulps", "default : 0\nend-qos-ulps"),
                "p"));
        assertThat(q.sl(a, b, null, null)).isEqualTo(12);
        assertThat(QosPolicy.of(QosPolicyFile.parse("qos-ulps\n default : 1\nend-qos-ulps\n" + ULPS.substring(
                ULPS.indexOf("qos-levels"), ULPS.indexOf("end-qos-levels") + 15), "p")).sl(a, b, null, null))
                .isEqualTo(12);
        // without a DEFAULT level the ULPs' default; without either the policy says nothing
        assertThat(QosPolicy.of(QosPolicyFile.parse("qos-ulps\n  default : 1\nend-qos-ulps\n", "p")).sl(a, b, null,
                null)).isEqualTo(1);
        assertThat(QosPolicy.of(QosPolicyFile.parse("qos-ulps\n  sdp : 3\nend-qos-ulps\n", "p")).sl(a, b, null,
                null)).isEqualTo(-1);
    }

    private static final String FULL = """
            port-groups
                port-group
                    name: Storage
                    use: SRP targets
                    port-guid: 0x40, 0x100-0x1ff
                end-port-group
                port-group
                    name: Virtual Servers
                    port-name: vs1 HCA-1/P1, vs2 HCA-1/P1
                end-port-group
                port-group
                    name: Switches
                    node-type: SWITCH
                end-port-group
                port-group
                    name: Me
                    node-type: SELF
                end-port-group
                port-group
                    name: Part
                    partition: Blue
                end-port-group
                port-group
                    name: Sixteen
                    pkey: 0x0010
                end-port-group
            end-port-groups
            qos-setup
                # nothing
            end-qos-setup
            qos-levels
                qos-level
                    name: DEFAULT
                    sl: 1
                end-qos-level
                qos-level
                    name: WholeSet
                    sl: 2
                    mtu-limit: 3
                    rate-limit: 5
                    pkey: 0x1234
                    packet-life: 8
                    path-bits: 0,2-3
                end-qos-level
                qos-level
                    name: "Quoted"
                    sl: 3
                end-qos-level
                qos-level
                    name: Four
                    sl: 4
                end-qos-level
                qos-level
                    name: Five
                    sl: 5
                end-qos-level
            end-qos-levels
            qos-match-rules
                qos-match-rule
                    qos-class: 7-9,11
                    qos-level-name: WholeSet
                end-qos-match-rule
                qos-match-rule
                    source: Virtual Servers
                    destination: Storage
                    service-id: 0x10000-0x1ffff
                    pkey: 0x0F00-0x0FFF
                    qos-level-name: Quoted
                end-qos-match-rule
                qos-match-rule
                    destination: Storage
                    qos-level-name: Four
                end-qos-match-rule
                qos-match-rule
                    source: Switches, Me
                    qos-level-name: Five
                end-qos-match-rule
                qos-match-rule
                    source: Part
                    destination: Sixteen
                    qos-level-name: Quoted
                end-qos-match-rule
            end-qos-match-rules
            qos-ulps
                any, target-port-guid 0x40 : 9
                any, source-port-guid 0x20 : 10
            end-qos-ulps
            """;

    @Test
    void matchRulesComeFirstEachNeedingAllItsCriteriaThenTheUlpsThenTheDefaultLevel() {
        QosPolicyFile f = QosPolicyFile.parse(FULL, "qos-policy.conf");
        assertThat(f.warnings()).containsExactly("qos-policy.conf:28: qos-setup is ignored, as by OpenSM (the SL2VL "
                + "and VL arbitration tables come from opensm.conf's qos_* options)");
        assertThat(f.portGroups()).hasSize(6);
        assertThat(f.portGroups().get(1).portNames()).containsExactly(new QosPolicyFile.PortName("vs1 HCA-1", 1),
                new QosPolicyFile.PortName("vs2 HCA-1", 1));
        QosPolicyFile.Level whole = f.levels().get(1);
        assertThat(whole).extracting(QosPolicyFile.Level::sl, QosPolicyFile.Level::mtuLimit,
                QosPolicyFile.Level::rateLimit, QosPolicyFile.Level::packetLife).containsExactly(2, 3, 5, 8);
        assertThat(f.levels().get(2).name()).isEqualTo("Quoted");
        QosPolicy p = QosPolicy.of(f, Map.of("Default", 0x7fff, "Blue", 0x0010));
        QosPolicy.Query none = new QosPolicy.Query(null, null, null);
        // the QoS class rule: the whole level
        QosPolicy.Qos q = p.path(PORTS, 1, 3, new QosPolicy.Query(null, null, 8));
        assertThat(q).isEqualTo(new QosPolicy.Qos(2, 3, 5, 8, whole.pkeys(), "WholeSet"));
        assertThat(p.path(PORTS, 1, 3, new QosPolicy.Query(null, null, 10)).level()).isEqualTo("Four");
        // all criteria or none: the service ID alone is not enough for the second rule
        assertThat(p.path(PORTS, 1, 3, new QosPolicy.Query(0x10001L, 0x8f10, null)).level()).isEqualTo("Quoted");
        assertThat(p.path(PORTS, 1, 3, new QosPolicy.Query(0x10001L, null, null)).level()).isEqualTo("Four");
        // node-type SWITCH and SELF
        assertThat(p.path(PORTS, 2, 1, none).level()).isEqualTo("Five");
        assertThat(p.path(PORTS, 0, 1, none).level()).isEqualTo("Five");
        // partition Blue (0x0010) to a port whose table has 0x0010: port 1 is both
        assertThat(p.path(PORTS, 1, 1, none).level()).isEqualTo("Quoted");
        // no rule: the ULPs (only an SL), then the DEFAULT level
        assertThat(p.path(PORTS, 1, 2, none)).isEqualTo(QosPolicy.Qos.sl(10));
        assertThat(p.path(PORTS, 3, 2, none).level()).isEqualTo("DEFAULT");
        assertThat(p.path(PORTS, 3, 2, none).sl()).isEqualTo(1);
    }

    @Test
    void badSyntaxAndUndefinedNamesAreOneLineNamingFileAndLine() {
        String level = "qos-levels\n qos-level\n  name: L\n  sl: 1\n end-qos-level\nend-qos-levels\n";
        String group = "port-groups\n port-group\n  name: G\n  node-type: CA\n end-port-group\nend-port-groups\n";
        String[][] cases = {
            {"qos-ulps\n  sdp 3\nend-qos-ulps\n", "q.conf:2: expected 'ulp[, criterion values] : sl', got 'sdp 3'"},
            {"qos-ulps\n  default : 16\nend-qos-ulps\n", "q.conf:2: sl 16: not 0..15"},
            {"qos-ulps\n  any, pkey 0xzz : 1\nend-qos-ulps\n", "q.conf:2: pkey '0xzz': not a number"},
            {"qos-ulps\n  nfs : 1\nend-qos-ulps\n", "q.conf:2: unknown ULP nfs (default, any, sdp, rds, iser, srp, "
                    + "ipoib)"},
            {"qos-ulps\n  any, qos-class 3 : 1\nend-qos-ulps\n", "q.conf:2: unknown criterion qos-class"},
            {"qos-ulps\n  sdp, pkey 3 : 1\nend-qos-ulps\n", "q.conf:2: sdp takes no pkey"},
            {"\nqos-ulps\n  default : 1\n", "q.conf:2: qos-ulps: no end-qos-ulps"},
            {"qos-levels\n qos-level\n  sl: 1\n end-qos-level\nend-qos-levels\n", "q.conf:2: qos-level without a name"},
            {"qos-levels\n qos-level\n  name: A\n  mtu-limit: 6\n end-qos-level\nend-qos-levels\n",
                "q.conf:4: mtu-limit 6: not 1 (256) .. 5 (4096)"},
            {"qos-levels\n qos-level\n  name: A\n  rate-limit: 1\n end-qos-level\nend-qos-levels\n",
                "q.conf:4: rate-limit 1: not an IBA rate code, 2 .. 63"},
            {"qos-levels\n qos-level\n  name: A\n  packet-life: 64\n end-qos-level\nend-qos-levels\n",
                "q.conf:4: packet-life 64: not 0 .. 63"},
            {"qos-levels\n qos-level\n  name: A\n  pkey: 0x10000\n end-qos-level\nend-qos-levels\n",
                "q.conf:4: pkey 0x10000: not a 16-bit P_Key"},
            {"qos-levels\n qos-level\n  name: A\n  color: red\n end-qos-level\nend-qos-levels\n",
                "q.conf:4: qos-level: unknown keyword color (name, use, sl, mtu-limit, rate-limit, packet-life, "
                        + "path-bits, pkey)"},
            {"qos-levels\n qos-level\n  name: A\n  sl\n end-qos-level\nend-qos-levels\n",
                "q.conf:4: expected 'keyword: value' or end-qos-level, got 'sl'"},
            {"qos-levels\n qos-level\n  name: A\n  sl:\n end-qos-level\nend-qos-levels\n", "q.conf:4: sl: no value"},
            {"qos-levels\n qos-level\n  name: A\nend-qos-levels\n",
                "q.conf:4: expected 'keyword: value' or end-qos-level, got 'end-qos-levels'"},
            {"qos-levels\n qos-level\n  name: A\n", "q.conf:2: qos-level: no end-qos-level"},
            {"qos-levels\n qos-level\n  name: A\n end-qos-level\n qos-level\n  name: A\n end-qos-level\n"
                    + "end-qos-levels\n", "q.conf:6: qos-level 'A' is defined twice"},
            {"qos-levels\n  name: A\nend-qos-levels\n", "q.conf:2: expected qos-level or end-qos-levels, got 'name: A'"},
            {"port-groups\n port-group\n  name: G\n  node-type: HOST\n end-port-group\nend-port-groups\n",
                "q.conf:4: node-type HOST: not CA, SWITCH, ROUTER, ALL or SELF"},
            {"port-groups\n port-group\n  name: G\n  port-name: vs1 HCA-1\n end-port-group\nend-port-groups\n",
                "q.conf:4: port-name 'vs1 HCA-1': not 'node description/Pn'"},
            {"port-groups\n port-group\n  port-guid: 0x10\n end-port-group\nend-port-groups\n",
                "q.conf:2: port-group without a name"},
            {"port-groups\n port-group\n  name: G\n  port-guid: 0x20-0x10\n end-port-group\nend-port-groups\n",
                "q.conf:4: port-guid 0x20-0x10: the range runs backwards"},
            {level + "qos-match-rules\n qos-match-rule\n  source: Nowhere\n  qos-level-name: L\n"
                    + " end-qos-match-rule\nend-qos-match-rules\n",
                "q.conf:9: source: port-group 'Nowhere' is not defined"},
            {level + group + "qos-match-rules\n qos-match-rule\n  destination: G\n  qos-level-name: M\n"
                    + " end-qos-match-rule\nend-qos-match-rules\n",
                "q.conf:16: qos-level-name: qos-level 'M' is not defined"},
            {level + "qos-match-rules\n qos-match-rule\n  service-id: 0x10\n end-qos-match-rule\n"
                    + "end-qos-match-rules\n", "q.conf:8: qos-match-rule without a qos-level-name"},
            {level + "qos-match-rules\n qos-match-rule\n  qos-class: 4096\n  qos-level-name: L\n"
                    + " end-qos-match-rule\nend-qos-match-rules\n", "q.conf:9: qos-class 4096: not 0 .. 4095"},
            {"qos-match-rules\n", "q.conf:1: qos-match-rules: no end-qos-match-rules"},
            {"port-group\n", "q.conf:1: expected a section (port-groups, qos-setup, qos-levels, qos-match-rules, "
                    + "qos-ulps), got 'port-group'"},
            {"sdp : 3\n", "q.conf:1: expected a section (port-groups, qos-setup, qos-levels, qos-match-rules, "
                    + "qos-ulps), got 'sdp : 3'"},
        };
        for (String[] c : cases) {
            assertThatThrownBy(() -> QosPolicyFile.parse(c[0], "q.conf")).as(c[0]).isInstanceOf(FormatException.class)
                    .hasMessage(c[1]);
        }
        // a rule may name a group or level the file defines after it
        assertThat(QosPolicyFile.parse("qos-match-rules\n qos-match-rule\n  source: G\n  qos-level-name: L\n"
                + " end-qos-match-rule\nend-qos-match-rules\n" + group + level, "q.conf").matchRules()).hasSize(1);
        // a partition the partitions file does not name
        QosPolicyFile f = QosPolicyFile.parse("port-groups\n port-group\n  name: G\n  partition: Red\n"
                + " end-port-group\nend-port-groups\n", "q.conf");
        assertThatThrownBy(() -> QosPolicy.of(f)).isInstanceOf(FormatException.class)
                .hasMessage("q.conf:2: port-group G: partition 'Red' is not in the partitions file");
    }
}
