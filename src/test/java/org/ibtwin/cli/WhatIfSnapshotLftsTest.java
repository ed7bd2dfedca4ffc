package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot's forwarding tables are the fabric as it is: a 2-spine tree of 8 hosts saved live, then leaf01's table
 * edited so that its uplinks (ports 3 and 4) route nothing, which ibtwin's SM would never program. {@code what-if}
 * starts from those tables (leaf01's 2 hosts reach no other leaf before the change) and {@code up} loads them.
 */
class WhatIfSnapshotLftsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    static Path dir;
    private static Path snap;

    @BeforeAll
    static void snapshot() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(Cli.execute(out, err, "gen", "fat-tree", "--hosts", "8", "--radix", "4", "--guid-base",
                "0xec0d9a0300ec8400", "-o", dir.resolve("two").toString())).as(err.toString()).isZero();
        Path saved = dir.resolve("saved.json");
        assertThat(Cli.execute(out, err, "snapshot", "save", "--fabric", dir.resolve("two.yaml").toString(), "-o",
                saved.toString())).as(err.toString()).isZero();
        ObjectNode root = (ObjectNode) JSON.readTree(saved.toFile());
        int cut = 0;
        for (JsonNode l : root.path("lfts")) {
            if (l.path("name").asText().equals("leaf01")) {
                ArrayNode ports = (ArrayNode) l.path("ports");
                for (int lid = 0; lid < ports.size(); lid++) {
                    if (ports.get(lid).asInt() == 3 || ports.get(lid).asInt() == 4) {
                        ports.set(lid, -1);
                        cut++;
                    }
                }
            }
        }
        // every LID but leaf01's own 2 hosts and itself left leaf01 by an uplink
        assertThat(cut).isGreaterThanOrEqualTo(6);
        snap = dir.resolve("cut.json");
        Files.writeString(snap, JSON.writeValueAsString(root));
    }

    private static JsonNode whatIf(int exit, String... change) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] a = new String[change.length + 3];
        a[0] = "what-if";
        a[1] = snap.toString();
        System.arraycopy(change, 0, a, 2, change.length);
        a[a.length - 1] = "--json";
        assertThat(Cli.execute(out, err, a)).as(err + out.toString()).isEqualTo(exit);
        return JSON.readTree(out.toString());
    }

    @Test
    void theBeforeSideRoutesAsTheSnapshotsTablesAndTheSmsSweepRoutesAgain() throws Exception {
        // a change the SM sweeps for: its own routes replace the cut ones, and leaf01's hosts gain 2 x 6 pairs
        JsonNode j = whatIf(0, "--mtu-cap", "4096");
        JsonNode r = j.path("reachability");
        assertThat(r.path("talk_before").asLong()).isEqualTo(28 - 12);
        assertThat(r.path("gained").asLong()).isEqualTo(12);
        assertThat(r.path("lost").asLong()).isZero();
        assertThat(r.path("gained_by_cause").get(0).path("cause").asText()).isEqualTo("no route");
        assertThat(r.path("gained_by_cause").get(0).path("route_before").asText()).contains("leaf01");
        assertThat(j.path("sm").path("lids_changed").asLong()).isZero();
        assertThat(j.path("sm").path("lft_blocks_to_write").asLong()).isPositive();
        assertThat(j.path("notes").toString()).contains("forwarding tables the fabric holds");
    }

    @Test
    void aPartitionChangeKeepsTheSnapshotsRoutes() throws Exception {
        Path f = dir.resolve("all.conf");
        Files.writeString(f, "Default=0x7fff, ipoib : ALL=full ;\n");
        JsonNode r = whatIf(0, "--partitions", f.toString()).path("reachability");
        assertThat(r.path("talk_before").asLong()).isEqualTo(16);
        assertThat(r.path("talk_after").asLong()).isEqualTo(16);
    }

    @Test
    void anLftEntryNoPortOfTheSwitchHasIsOneLineNamingItAndExitTwo() throws Exception {
        ObjectNode root = (ObjectNode) JSON.readTree(snap.toFile());
        ((ArrayNode) root.path("lfts").get(0).path("ports")).set(1, 99);
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, JSON.writeValueAsString(root));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(Cli.execute(out, err, "what-if", bad.toString(), "--mtu-cap", "4096")).isEqualTo(2);
        assertThat(err.toString().strip()).doesNotContain("\n").contains("bad.json").contains("lfts: ")
                .contains("LID 1: port 99 is not one of its ports");
    }

    @Test
    void upLoadsTheTablesAndItsSmKeepsThem() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(Cli.execute(out, err, "up", snap.toString(), "--once", "--json", "-p", "25400"))
                .as(err.toString()).isZero();
        JsonNode j = JSON.readTree(out.toString());
        assertThat(j.path("routingEngine").asText()).isEqualTo("held");
        assertThat(j.path("lidsKept").asInt()).isEqualTo(j.path("endPorts").asInt());
    }
}
