package org.ibtwin.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.ibtwin.format.PartitionsConf.Membership;
import org.ibtwin.model.NodeType;
import org.junit.jupiter.api.Test;

class PartitionsConfTest {
    static final String CONF = """
            # OpenSM partitions
            Default=0x7fff, ipoib, rate=7, mtu=5, defmember=full : ALL, ALL_SWITCHES=full, SELF=full;
            Storage=0x0002, ipoib:
                0x0c42a10300160501=full,   # the file server
                0x0c42a10300160601;
            Tenant=0x8003 : ALL_CAS=limited ; Auto : NONE ;
            mc=0x0004 : mgid=ff12:401b::1, rate=3 ;
            """;

    @Test
    void statementsAcrossLinesAndOnOneLine() {
        PartitionsConf c = PartitionsConf.parse(CONF, "partitions.conf");
        assertThat(c.partitions()).extracting(PartitionsConf.Partition::name).containsExactly("Default", "Storage",
                "Tenant", "Auto", "mc");
        PartitionsConf.Partition storage = c.partitions().get(1);
        assertThat(storage.pkey()).isEqualTo(2);
        assertThat(storage.line()).isEqualTo(3);
        assertThat(storage.members()).extracting(PartitionsConf.Member::guid, PartitionsConf.Member::membership,
                PartitionsConf.Member::line).containsExactly(
                org.assertj.core.groups.Tuple.tuple(0x0c42a10300160501L, Membership.FULL, 4),
                org.assertj.core.groups.Tuple.tuple(0x0c42a10300160601L, Membership.LIMITED, 5));
        assertThat(c.partitions().get(2).pkey()).isEqualTo(3);
        assertThat(c.partitions().get(3).pkey()).isEqualTo(-1);
        assertThat(c.partitions().get(3).key()).isEqualTo("Auto");
        assertThat(c.partitions().get(0).flags()).containsEntry("mtu", "5").containsEntry("defmember", "full");
        assertThat(c.partitions().get(4).members()).isEmpty();
    }

    @Test
    void membershipsFollowOpensm() {
        PartitionsConf c = PartitionsConf.parse(CONF, "p");
        Map<String, Membership> fileServer = c.memberships(0x0c42a10300160501L, NodeType.CA, 0x99);
        assertThat(fileServer).containsEntry("0x7fff", Membership.FULL).containsEntry("0x0002", Membership.FULL)
                .containsEntry("0x0003", Membership.LIMITED);
        Map<String, Membership> sw = c.memberships(0x55, NodeType.SWITCH, 0x99);
        assertThat(sw).containsOnlyKeys("0x7fff");
        PartitionsConf lockout = PartitionsConf.parse("Default=0x7fff : ALL=limited ;", "p");
        assertThat(lockout.memberships(0x99, NodeType.CA, 0x99)).containsEntry("0x7fff", Membership.LIMITED);
        PartitionsConf none = PartitionsConf.parse("# nothing\n", "p");
        assertThat(none.memberships(0x99, NodeType.CA, 0x99)).containsEntry("0x7fff", Membership.FULL);
        assertThat(none.memberships(0x98, NodeType.CA, 0x99)).containsEntry("0x7fff", Membership.LIMITED);
    }

    @Test
    void errorsNameFileAndLine() {
        assertThatThrownBy(() -> PartitionsConf.parse("Default=0x7fff : ALL;\nBad=0xzz : ALL;\n", "pc"))
                .hasMessage("pc:2: P_Key \"0xzz\" of partition \"Bad\" is not a number");
        assertThatThrownBy(() -> PartitionsConf.parse("\n\nDefault=0x7fff ALL;\n", "pc"))
                .hasMessage("pc:3: no partition definition found (expected Name=PKey : members ;)");
        assertThatThrownBy(() -> PartitionsConf.parse("P=1 :\n  ALL,\n  nodeX=full;\n", "pc"))
                .hasMessage("pc:3: bad PortGUID \"nodeX\" in partition \"P\"");
        assertThatThrownBy(() -> PartitionsConf.parse("P=1 : ALL=half;", "pc"))
                .hasMessage("pc:1: membership \"half\" of ALL is not full, limited or both");
        assertThatThrownBy(() -> PartitionsConf.parse("P=1 : ALL\n", "pc"))
                .hasMessage("pc:1: partition statement without a closing ';'");
    }

    @Test
    void recognisedByContent() {
        assertThat(PartitionsConf.looksLike(CONF)).isTrue();
        assertThat(PartitionsConf.looksLike("DEVICE=ib0\nMTU=65520\n")).isFalse();
    }

    @Test
    void anMgidTakesTheRestOfItsLineAndPortsFollowOnTheNextAndMembershipsMayBeAbbreviated() {
        PartitionsConf c = PartitionsConf.parse("""
                SuperUsers=0x8001, ipoib, mtu=5 : mgid=ff12:401b::0707,sl=1,Q_Key=0xDEADBEEF
                  0x0002c90300000003=limi, 0x0002c90300000005=f ;
                NewPartition , ipoib : 0x123456=full, 0x3456789034=limi, 0x2134af2306 ;
                """, "p.conf");
        assertThat(c.partitions().get(0).members()).extracting(PartitionsConf.Member::guid,
                PartitionsConf.Member::membership, PartitionsConf.Member::line).containsExactly(
                org.assertj.core.groups.Tuple.tuple(0x0002c90300000003L, Membership.LIMITED, 2),
                org.assertj.core.groups.Tuple.tuple(0x0002c90300000005L, Membership.FULL, 2));
        assertThat(c.partitions().get(1).members()).extracting(PartitionsConf.Member::membership)
                .containsExactly(Membership.FULL, Membership.LIMITED, Membership.LIMITED);
        assertThatThrownBy(() -> PartitionsConf.parse("P=0x1 :\n 0x10=fully ;", "q.conf"))
                .hasMessage("q.conf:2: membership \"fully\" of 0x10 is not full, limited or both");
    }
}
