package org.ibtwin.diag;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** ibidsverify's checks on hand-written ibnetdiscover -g topologies. */
class IdsVerifyTest {
    private static final String SWITCH = """
            vendid=0x0
            devid=0x0
            sysimgguid=0x200000
            switchguid=0x200000(200000)\t#\s
            Switch\t8 "S-0000000000200000"\t\t# "Switch1" base port 0 lid %d lmc 0
            [1]\t"H-0000000000100000"[1](100001) \t\t# "Hca1" lid 2 4xSDR

            """;

    private static String ca(String guid, String portGuid, int lid) {
        return "vendid=0x0\ndevid=0x0\nsysimgguid=" + guid + "\ncaguid=" + guid + "\nCa\t2 \"H-" + guid + "\"\t\t# \"x\"\n"
                + "[1](" + portGuid + ") \t\"S-0000000000200000\"[1]\t\t# lid " + lid
                + " lmc 0 \"Switch1\" lid 1 4xSDR\n\n";
    }

    @Test
    void aHealthyFabricHasNoProblems() {
        assertThat(IdsVerify.check(SWITCH.formatted(1) + ca("0x100000", "100001", 2) + ca("0x100003", "100004", 3)))
                .isEmpty();
    }

    @Test
    void zeroAndDuplicateLids() {
        List<IdsVerify.Problem> p = IdsVerify.check(SWITCH.formatted(0) + ca("0x100000", "100001", 2)
                + ca("0x100003", "100004", 2));
        assertThat(IdsVerify.text(p)).isEqualTo("""
                LID 0 found for switch NodeGUID 0x200000
                LID 2 already defined for NodeGUID 0x100000
                """);
        assertThat(p).extracting(IdsVerify.Problem::kind).containsExactly(IdsVerify.Kind.LID_ZERO,
                IdsVerify.Kind.DUPLICATE_LID);
    }

    @Test
    void duplicateGuids() {
        List<IdsVerify.Problem> p = IdsVerify.check(SWITCH.formatted(1) + ca("0x100000", "100001", 2)
                + ca("0x100000", "100005", 3) + ca("0x100006", "100001", 4) + ca("0x100008", "100000", 5));
        assertThat(IdsVerify.text(p)).isEqualTo("""
                NodeGUID 0x100000 already defined for LID 2
                PortGUID 0x100001 already defined for LID 2
                PortGUID 0x100000 is an invalid duplicate of a NodeGUID
                """);
    }

    @Test
    void aZeroGuidIsOnlySeenWhenSpelledZero() {
        assertThat(IdsVerify.check(ca("0x0", "0", 2))).isEmpty();
        assertThat(IdsVerify.text(IdsVerify.check("caguid=0\nCa\t1 \"H-0\"\n[1](0) \t\"S-1\"[1]\t\t# lid 2 lmc 0\n")))
                .isEqualTo("ca GUID 0x0 found with LID 2\n");
    }
}
