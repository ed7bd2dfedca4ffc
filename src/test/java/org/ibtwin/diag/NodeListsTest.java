package org.ibtwin.diag;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The scripts' awk, on the lines a topology has and on lines that trip it up as they trip the real awk. */
class NodeListsTest {
    private static final String TOPO = """
            #
            # Topology file: generated on Mon Nov 30 07:30:14 2026
            #
            vendid=0x2c9
            switchguid=0x2c90380000001(2c90380000001)
            Switch\t40 "S-0002c90380000001"\t\t# "leaf02" enhanced port 0 lid 2 lmc 0
            [1]\t"H-0002c90300000029"[1](2c9030000002a) \t\t# "node021 mlx5_0" lid 26 4xHDR
            Switch\t8 "S-0000000000200000"\t\t# "Switch1" base port 0 lid 1 lmc 0
            Switch\t8 "S-0000000000200002"\t\t# "port 0 switch" base port 0 lid 9 lmc 0
            caguid=0x2c90300000029
            Ca\t1 "H-0002c90300000029"\t\t# "node021 mlx5_0"
            Ca\t2 "H-0000000000100000"
            ibwarn: [12] something
            """;

    @Test
    void switchesAsIbswitchesPrintsThem() {
        assertThat(NodeLists.switches(TOPO)).containsExactly(
                "Switch\t: 0x0002c90380000001 ports 40 \"leaf02\" enhanced port 0 lid 2 lmc 0",
                "Switch\t: 0x0000000000200000 ports 8 \"Switch1\" base port 0 lid 1 lmc 0",
                "Switch\t: 0x0000000000200002 ports 8  port 0 switch\" base port 0 lid 9 lmc 0",
                "ibwarn: [12] something");
    }

    @Test
    void hostsAsIbhostsPrintsThem() {
        assertThat(NodeLists.hosts(TOPO)).containsExactly(
                "Ca\t: 0x0002c90300000029 ports 1 \"node021 mlx5_0\"",
                "Ca\t: 0x0000000000100000 ports 2 Ca\t2 \"H-0000000000100000\"",
                "ibwarn: [12] something");
    }
}
