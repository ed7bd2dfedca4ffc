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

    @Test
    void badIpoibFlagsAndAMissingSemicolonAreOneLineEach() {
        assertThatThrownBy(() -> PartitionsConf.parse("Default=0x7fff, ipoib, mtu=99 : ALL=full ;", "pc"))
                .hasMessage("pc:1: mtu=99 of partition \"Default\" is not an MTU code 1..5 (256..4096 bytes)");
        assertThatThrownBy(() -> PartitionsConf.parse("P=1, rate=1 : ALL ;", "pc"))
                .hasMessage("pc:1: rate=1 of partition \"P\" is not an IBA rate code 2..24");
        assertThatThrownBy(() -> PartitionsConf.parse("P=1, sl=16 : ALL ;", "pc"))
                .hasMessage("pc:1: sl=16 of partition \"P\" is not a service level 0..15");
        assertThatThrownBy(() -> PartitionsConf.parse("# tenants\nA=0x0001 : ALL=full\nB=0x0002 : ALL=full ;\n",
                "pc")).hasMessage("pc:2: partition \"A\" has no closing ';' before the next partition at line 3")
                .message().doesNotContain("\n");
        // a token with a line break inside is still one line, the break shown as \n
        assertThatThrownBy(() -> PartitionsConf.parse("P=0x80\n01 : ALL ;\n", "pc"))
                .hasMessage("pc:1: P_Key \"0x80\\n01\" of partition \"P\" is not a number");
        assertThatThrownBy(() -> PartitionsConf.parse("P=1 : 0x10=fu\nll ;\n", "pc"))
                .hasMessage("pc:1: membership \"fu\\nll\" of 0x10 is not full, limited or both");
        assertThatThrownBy(() -> PartitionsConf.parse("P=1 : 0x1\r\n0zz=full ;\n", "pc"))
                .hasMessage("pc:1: bad PortGUID \"0x1\\r\\n0zz\" in partition \"P\"");
        // an mgid's colons are no header
        assertThat(PartitionsConf.parse("A=0x0001 :\n  mgid=ff12:401b::1 ;\n", "pc").partitions()).hasSize(1);
    }

    @Test
    void aSecondPartitionWithTheSamePkeyIsMergedWithAWarning() {
        PartitionsConf c = PartitionsConf.parse("Default=0x7fff : ALL=full ;\nOther=0x7fff : ALL=limited ;\n", "pc");
        assertThat(c.warnings()).containsExactly("pc:2: partition \"Other\" has P_Key 0x7fff of partition "
                + "\"Default\" (line 1); as OpenSM, its members join that partition");
        assertThat(c.table(0x10, NodeType.CA, 0x99)).containsExactly(0x7fff);
        assertThat(PartitionsConf.parse("A=1 : ALL ;\nA=1 : SELF=full ;\n", "pc").warnings()).isEmpty();
    }

    @Test
    void aPkeyWithPartitionNumberZeroIsGeneratedAsOpensmDoes() {
        // OpenSM masks 0x8000 to 0 and generates the next free P_Key: 0x0001, 0x8001 for a full member
        PartitionsConf c = PartitionsConf.parse("bad=0x8000 : ALL=full ;\n", "pc");
        assertThat(c.warnings()).containsExactly("pc:1: P_Key 0x8000 of partition \"bad\" has partition number 0, "
                + "which is no P_Key; as OpenSM, it gets a generated one");
        assertThat(c.table(0xec0d9a0300ec8480L, NodeType.CA, 0)).containsExactly(0x7fff, 0x8001);
        assertThat(c.table(0x55, NodeType.SWITCH, 0)).containsExactly(0x7fff, 0x8001);
        assertThat(PartitionsConf.parse("one=1 : ALL ;\nbad=0x8000 : ALL=full ;\n", "pc").pkeys())
                .containsEntry("bad", 2);
    }

    @Test
    void aFileThatIsNotUtf8IsSaidSo(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path f = dir.resolve("partitions.conf");
        java.nio.file.Files.write(f, new byte[] {'D', '=', (byte) 0xff, (byte) 0xfe, ';'});
        assertThatThrownBy(() -> PartitionsConf.read(f)).hasMessage(f + ": not a text file (invalid UTF-8)");
        assertThatThrownBy(() -> PartitionsConf.read(dir)).hasMessage(dir + ": is a directory, not a partitions file");
    }
}
