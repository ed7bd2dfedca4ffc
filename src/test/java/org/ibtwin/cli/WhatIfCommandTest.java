package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ibtwin what-if} through the command line, on fabrics whose answers are known: a 3:1 tree whose leaves have
 * one uplink each (9 hosts, 3 a leaf; the GUIDs carry a high OUI, 0xec0d9a...), and a 2-spine tree of 8 hosts.
 */
class WhatIfCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    static Path dir;
    private static String thin;
    private static String twoSpines;

    @BeforeAll
    static void fabrics() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(Cli.execute(out, err, "gen", "fat-tree", "--hosts", "9", "--radix", "4", "--blocking", "3:1",
                "--guid-base", "0xec0d9a0300ec8400", "-o", dir.resolve("thin").toString())).as(err.toString()).isZero();
        assertThat(Cli.execute(out, err, "gen", "fat-tree", "--hosts", "8", "--radix", "4", "-o",
                dir.resolve("two").toString())).as(err.toString()).isZero();
        thin = dir.resolve("thin.topo").toString();
        twoSpines = dir.resolve("two.yaml").toString();
    }

    private static JsonNode run(int exit, String... args) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] a = new String[args.length + 2];
        a[0] = "what-if";
        System.arraycopy(args, 0, a, 1, args.length);
        a[a.length - 1] = "--json";
        int code = Cli.execute(out, err, a);
        assertThat(code).as(err + out.toString()).isEqualTo(exit);
        JsonNode j = JSON.readTree(out.toString());
        assertThat(j.path("exit").asInt()).isEqualTo(exit);
        return j;
    }

    /** The port GUID of host k (1-based) of the thin tree: the generator gives CA k node GUID base+2k, port +1. */
    private static String port(int k) {
        return String.format("0x%016x", 0xec0d9a0300ec8400L + 2L * k + 1);
    }

    @Test
    void pullingALeafsOnlyUplinkLosesExactlyThePairsBetweenItsHostsAndTheRest() throws Exception {
        JsonNode j = run(1, thin, "--pull-cable", "leaf03/4");
        JsonNode r = j.path("reachability");
        assertThat(r.path("hosts").asInt()).isEqualTo(9);
        assertThat(r.path("talk_before").asLong()).isEqualTo(36);
        assertThat(r.path("lost").asLong()).isEqualTo(3 * 6);
        assertThat(r.path("gained").asLong()).isZero();
        // the 3 hosts of leaf03 still talk among themselves, the 6 others too: 3 + 15
        assertThat(r.path("talk_after").asLong()).isEqualTo(18);
        JsonNode g = r.path("lost_by_cause").get(0);
        assertThat(g.path("cause").asText()).isEqualTo("no route");
        assertThat(g.path("route_before").asText()).contains("spine01").contains("leaf03");
        assertThat(j.path("sm").path("lids_changed").asLong()).isZero();
        assertThat(j.path("sm").path("lft_blocks_to_write").asLong()).isPositive();
        // the same cable named by the far end's switch GUID (high OUI) and both ends, as the text report
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Cli.execute(out, err, "what-if", thin, "--pull-cable", "spine01/3,0xec0d9a0380ec8402/4");
        assertThat(code).as(err.toString()).isEqualTo(1);
        assertThat(out.toString()).contains("LOST: 18 of 36 host pairs").contains("  no route: 18 pairs, e.g. ")
                .contains("    before: ").contains("    after:  ");
    }

    @Test
    void movingOneNodeFromTenantAToTenantBLosesItsPairsWithAAndGainsThemWithB() throws Exception {
        // node001 (the SM's host) is in Default alone; A = node002..node004, B = node005..node009
        String a = "Default=0x7fff, ipoib : ALL=limited, SELF=full ;\n";
        Path before = dir.resolve("before.conf");
        Files.writeString(before, a + "A=0x8001 : " + port(2) + "=full, " + port(3) + "=full, " + port(4)
                + "=full ;\nB=0x8002 : " + port(5) + "=full, " + port(6) + "=full, " + port(7) + "=full, " + port(8)
                + "=full, " + port(9) + "=full ;\n");
        Path after = dir.resolve("after.conf");
        Files.writeString(after, a + "A=0x8001 : " + port(2) + "=full, " + port(3) + "=full ;\nB=0x8002 : "
                + port(4) + "=full, " + port(5) + "=full, " + port(6) + "=full, " + port(7) + "=full, " + port(8)
                + "=full, " + port(9) + "=full ;\n");
        JsonNode j = run(1, thin, "--Pconfig", before.toString(), "--partitions", after.toString());
        JsonNode r = j.path("reachability");
        assertThat(r.path("lost").asLong()).isEqualTo(2);
        assertThat(r.path("gained").asLong()).isEqualTo(5);
        assertThat(r.path("lost_by_cause")).hasSize(1);
        assertThat(r.path("lost_by_cause").get(0).path("cause").asText()).isEqualTo("partition");
        assertThat(r.path("lost_by_cause").get(0).path("example").asText()).contains("node004/1");
        assertThat(r.path("gained_by_cause").get(0).path("cause").asText()).isEqualTo("partition");
        assertThat(j.path("partitions").path("ports_changed").asLong()).isEqualTo(1);
        assertThat(j.path("partitions").path("ports").get(0).asText())
                .isEqualTo("node004/1: leaves 0x8001 (full); joins 0x8002 (full)");
        assertThat(j.path("partitions").path("ipoib_groups").toString()).contains("ff12:401b:8001::ffff:ffff")
                .contains("ff12:401b:8002::ffff:ffff");
        assertThat(j.path("sm_problems")).isEmpty();
    }

    @Test
    void allLimitedIsFlaggedAsLockingTheSmOut() throws Exception {
        Path f = dir.resolve("limited.conf");
        Files.writeString(f, "Default=0x7fff : ALL=limited ;\n");
        JsonNode j = run(1, thin, "--partitions", f.toString());
        assertThat(j.path("sm_problems").get(0).asText()).startsWith("locked out: ").contains("limited.conf:1:");
        assertThat(j.path("partitions").path("sm_port_after").asText()).contains("LIMITED member of 0x7fff");
        assertThat(j.path("reachability").path("talk_after").asLong()).isZero();
    }

    @Test
    void pullingTheSmsOwnCableSaysTheSmIsCutOff() throws Exception {
        // node001 is the SM's host: its only cable pulled, it loses its 8 pairs and sweeps nothing more
        JsonNode j = run(1, thin, "--pull-cable", "node001/1");
        assertThat(j.path("reachability").path("lost").asLong()).isEqualTo(8);
        assertThat(j.path("sm_problems").get(0).asText()).startsWith("cut off: the SM's own port");
        assertThat(j.path("partitions").path("sm_port_after").asText()).endsWith("not in the fabric");
    }

    @Test
    void drainingOneOfTwoSpinesLosesNoPairAndHalvesTheCrossLeafShift() throws Exception {
        JsonNode j = run(0, twoSpines, "--drain-switch", "spine02");
        assertThat(j.path("reachability").path("lost").asLong()).isZero();
        JsonNode shift = j.path("bandwidth").get(0);
        assertThat(shift.path("pattern").asText()).startsWith("shift by 4");
        double ratio = shift.path("aggregate_Gb_per_sec_after").asDouble()
                / shift.path("aggregate_Gb_per_sec_before").asDouble();
        assertThat(ratio).isBetween(0.45, 0.55);
        assertThat(j.path("links_load_rising")).isNotEmpty();
        assertThat(j.path("sm").path("credit_loop_after").asBoolean()).isFalse();
    }

    @Test
    void killingTheMasterWithAStandbyKeepsEveryLid() throws Exception {
        JsonNode j = run(0, twoSpines, "--standby", "node008", "--kill-sm");
        assertThat(j.path("sm").path("master_before").asText()).startsWith("node001/1");
        assertThat(j.path("sm").path("master_after").asText()).startsWith("node008/1");
        assertThat(j.path("sm").path("lids_changed").asLong()).isZero();
        assertThat(j.path("reachability").path("lost").asLong()).isZero();
        // without a standby, nobody is master after: the SM is lost
        JsonNode k = run(1, twoSpines, "--kill-sm");
        assertThat(k.path("sm_problems").get(0).asText()).startsWith("no SM is master after the change");
    }

    @Test
    void aChangesFileReadsAsTheOptionsAndItsErrorsNameTheLine() throws Exception {
        Path f = dir.resolve("changes.txt");
        Files.writeString(f, "# the only uplink of leaf03\n--pull-cable leaf03/4\n");
        JsonNode j = run(1, thin, "--changes", f.toString());
        assertThat(j.path("reachability").path("lost").asLong()).isEqualTo(18);
        Files.writeString(f, "pull-cable leaf03/4\nset-link leaf01/4 width=5x\n");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(Cli.executeAfresh(out, err, "what-if", thin, "--changes", f.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("ibtwin what-if: " + f + ":2: --set-link: unknown width \"5x\" "
                + "(1x, 2x, 4x, 8x, 12x)" + System.lineSeparator());
    }

    @Test
    void eachLinkAndEachSwitchRankTheWeakestPoints() throws Exception {
        // the thin tree: every uplink is a leaf's only one: 3 hosts x 6 others, both ways
        JsonNode j = run(1, thin, "--each-link");
        assertThat(j.path("scenarios")).hasSize(3);
        for (JsonNode s : j.path("scenarios")) {
            assertThat(s.path("pairs_lost").asLong()).as(s.toString()).isEqualTo(36);
            assertThat(s.path("engine").asText()).isEqualTo("minhop");
        }
        JsonNode w = run(1, thin, "--each-switch");
        assertThat(w.path("scenarios").get(0).path("failure").asText()).isEqualTo("spine01");
        assertThat(w.path("scenarios").get(0).path("pairs_lost").asLong()).isEqualTo(9 * 6);
        // a leaf's 3 hosts lose every pair, both ways: 3 x 8 + 6 x 3
        assertThat(w.path("scenarios").get(1).path("pairs_lost").asLong()).isEqualTo(42);
        // two spines: no single cable loses a pair; the list is every inter-switch cable (4 leaves x 2 spines)
        JsonNode t = run(0, twoSpines, "--each-link");
        assertThat(t.path("scenarios")).hasSize(8);
        for (JsonNode s : t.path("scenarios")) {
            assertThat(s.path("pairs_lost").asLong()).isZero();
            assertThat(s.path("shift_Gb_per_sec_after").asDouble())
                    .isLessThan(s.path("shift_Gb_per_sec_before").asDouble());
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(Cli.executeAfresh(out, err, "what-if", thin, "--each-link", "--pull-cable", "leaf01/4"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("give no other change");
    }

    @Test
    void anUnknownNodeIsOneLineNamingItAndExitTwo() {
        for (String[] args : new String[][] {{"--pull-cable", "leaf99/4"}, {"--drain-switch", "node001"},
            {"--drain-node", "0xec0d9a03ffffffff"}, {"--kill-sm", "node005"}}) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            String[] a = {"what-if", thin, args[0], args[1]};
            assertThat(Cli.executeAfresh(out, err, a)).as(String.join(" ", a)).isEqualTo(2);
            assertThat(err.toString().lines().count()).as(err.toString()).isEqualTo(1);
            assertThat(err.toString()).doesNotContain("Exception");
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(Cli.executeAfresh(out, err, "what-if", thin, "--pull-cable", "leaf99/4")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown node \"leaf99\"");
        assertThat(Cli.executeAfresh(out, err, "what-if", thin)).isEqualTo(2);
    }
}
