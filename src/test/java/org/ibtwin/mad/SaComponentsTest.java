package org.ibtwin.mad;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The one component mask table the SA and saquery read: IBA's bit numbers, each named by a field of its record. */
class SaComponentsTest {
    private static final List<Integer> RECORDS = List.of(AttributeIds.NODE_RECORD, AttributeIds.PORT_INFO_RECORD,
            AttributeIds.LINK_RECORD, AttributeIds.SWITCH_INFO_RECORD, AttributeIds.LFT_RECORD,
            AttributeIds.P_KEY_TABLE_RECORD, AttributeIds.SM_INFO_RECORD, AttributeIds.MC_MEMBER_RECORD,
            AttributeIds.PATH_RECORD);

    @Test
    void everyComponentIsAFieldOfItsRecord() {
        for (int attr : RECORDS) {
            Layout l = SaAttributes.record(attr);
            assertThat(SaComponents.count(attr)).as(l.name()).isPositive();
            for (int bit = 0; bit < SaComponents.count(attr); bit++) {
                String name = SaComponents.name(attr, bit);
                if (name != null) {
                    assertThat(l.field(name)).as(l.name() + " component " + bit).isNotNull();
                }
            }
        }
    }

    @Test
    void theBitsAreIbasAndSaquerys() {
        assertThat(SaComponents.bit(AttributeIds.PATH_RECORD, "PathRecServiceId")).isEqualTo(0x3);
        assertThat(SaComponents.bit(AttributeIds.PATH_RECORD, "PathRecDGid")).isEqualTo(1L << 2);
        assertThat(SaComponents.bit(AttributeIds.PATH_RECORD, "PathRecSLid")).isEqualTo(1L << 5);
        assertThat(SaComponents.bit(AttributeIds.PATH_RECORD, "PathRecNumPath")).isEqualTo(1L << 12);
        assertThat(SaComponents.selected(AttributeIds.PATH_RECORD, "PathRecRateSelector", "PathRecRate"))
                .isEqualTo(3L << 18);
        assertThat(SaComponents.bit(AttributeIds.PATH_RECORD, "PathRecPreference")).isEqualTo(1L << 22);
        assertThat(SaComponents.bit(AttributeIds.PORT_INFO_RECORD, "CapMask")).isEqualTo(1L << 7);
        assertThat(SaComponents.bit(AttributeIds.P_KEY_TABLE_RECORD, "PortNum")).isEqualTo(1L << 2);
        assertThat(SaComponents.bit(AttributeIds.LINK_RECORD, "ToLID")).isEqualTo(1L << 3);
        assertThat(SaComponents.bit(AttributeIds.MC_MEMBER_RECORD, "McastMemJoinState")).isEqualTo(1L << 16);
        assertThat(SaComponents.bit(AttributeIds.MC_MEMBER_RECORD, "McastMemProxyJoin")).isEqualTo(1L << 17);
        assertThat(SaComponents.name(AttributeIds.NODE_RECORD, 1)).isNull();
        assertThat(SaComponents.name(AttributeIds.PATH_RECORD, 7)).isNull();
        assertThatThrownBy(() -> SaComponents.bit(AttributeIds.LINK_RECORD, "Lid"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
