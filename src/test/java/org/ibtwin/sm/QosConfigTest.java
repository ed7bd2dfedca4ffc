package org.ibtwin.sm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class QosConfigTest {
    @Test
    void openSmsDefaultsForEveryClass() {
        QosConfig q = QosConfig.defaults();
        for (QosConfig.PortClass c : QosConfig.PortClass.values()) {
            QosConfig.Tables t = q.tables(c);
            assertThat(t.maxVls()).isEqualTo(15);
            assertThat(t.highLimit()).isZero();
            assertThat(t.toString()).endsWith("sl2vl 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7");
            assertThat(t.high()).startsWith(0, 4, 1, 0, 2, 0);
            assertThat(t.low()).startsWith(0, 0, 1, 4, 2, 4);
        }
    }

    @Test
    void aClassOptionBeatsTheGeneralOneWhichBeatsTheDefault() {
        QosConfig q = QosConfig.of(Map.of("qos_high_limit", "3", "qos_ca_high_limit", "9", "qos_swe_high_limit", "-1",
                "qos_sl2vl", "0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,15", "qos_rtr_sl2vl", "(null)", "qos_sw0_max_vls", "0x4"));
        assertThat(q.highLimit(QosConfig.PortClass.CA)).isEqualTo(9);
        assertThat(q.highLimit(QosConfig.PortClass.SWITCH_EXTERNAL)).isEqualTo(3);
        assertThat(q.tables(QosConfig.PortClass.ROUTER).vl(15)).isEqualTo(15);
        assertThat(q.tables(QosConfig.PortClass.ROUTER).vl(8)).isEqualTo(1);
        assertThat(q.tables(QosConfig.PortClass.SWITCH_PORT0).maxVls()).isEqualTo(4);
        assertThat(q.tables(QosConfig.PortClass.CA).maxVls()).isEqualTo(15);
    }

    @Test
    void badValuesAreNamed() {
        assertThat(QosConfig.check("qos_max_vls", "16")).isEqualTo("qos_max_vls 16: out of range (1..15; 0: the "
                + "default, 15)");
        assertThat(QosConfig.check("qos_ca_high_limit", "256")).startsWith("qos_ca_high_limit 256: out of range");
        assertThat(QosConfig.check("qos_swe_vlarb_low", "0:4,15:1")).isEqualTo("qos_swe_vlarb_low 0:4,15:1: VL 15 "
                + "out of range (0..14)");
        assertThat(QosConfig.check("qos_vlarb_high", "0:4,1")).isEqualTo("qos_vlarb_high 0:4,1: \"1\" is not "
                + "VL:weight");
        assertThat(QosConfig.check("qos_rtr_sl2vl", "1,2,x,3,4,5,6,7,8,9,10,11,12,13,14,0")).isEqualTo(
                "qos_rtr_sl2vl 1,2,x,3,4,5,6,7,8,9,10,11,12,13,14,0: \"x\" is not a number");
        assertThat(QosConfig.check("qos_sl2vl", "(null)")).isNull();
        assertThat(QosConfig.check("qos_policy_file", "/etc/opensm/qos-policy.conf")).isNull();
    }

    @Test
    void anEnginesLanesKeepSlNOnVlNAndTheMaskKeepsVl15() {
        byte[] qos = QosConfig.sl2vl("7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,15", null);
        byte[] laned = Sl2VlWriter.laned(qos, 3);
        assertThat(laned[0]).isEqualTo((byte) 0x01);
        assertThat(laned[1]).isEqualTo((byte) 0x27);
        byte[] pi = new byte[64];
        Topology.PI_OPER_VLS.set(pi, 0, 2);   // VL0-1: mask 1
        byte[] masked = Sl2VlWriter.mask(laned, pi);
        assertThat(masked[0]).isEqualTo((byte) 0x01);
        assertThat(masked[1]).isEqualTo((byte) 0x01);
        assertThat(masked[7]).isEqualTo((byte) 0x1f);
    }
}
