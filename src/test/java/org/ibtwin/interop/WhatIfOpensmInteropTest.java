package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ibtwin.cli.Main;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.ibtwin.model.Node;
import org.ibtwin.model.Port;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code ibtwin what-if --sm opensm} against {@code --sm ibtwin}: the same change rehearsed with real OpenSM as the
 * SM of both copies and with ibtwin's SM gives the same reachability answer (pairs before and after, lost and
 * gained by cause, the exit status), on ibsim's example nets and on generated fat trees; the changes: a pulled
 * inter-switch cable, a drained switch (not the SM's own), and a partitions.conf of two tenants. Ports 26400..26421
 * (UDP endpoints, where the JDK does not serve ibsim's local mode).
 */
@Tag("interop")
@Timeout(600)
class WhatIfOpensmInteropTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PORT = "26400";

    @TempDir
    static Path dir;

    @BeforeAll
    static void tools() {
        RealTools.findOrSkip();
    }

    @Test
    void ibsimExampleNets() throws Exception {
        boolean any = false;
        // net.2sw2path4hca2port: two-port CAs whose ports the tenants' file puts in different partitions (each
        // port's P_KeyTable is read through that port: the SM's second port is a limited Default member)
        for (String name : List.of("net", "net.2sw2path", "net.2sw2path4hca", "net.2sw2path4hca2port")) {
            Path example = Path.of(TwinParityInteropTest.EXAMPLES, name);
            if (!Files.isRegularFile(example)) {
                continue;
            }
            any = true;
            Path net = dir.resolve(name);
            Files.copy(example, net);
            sameAnswers(net.toString());
        }
        Assumptions.assumeTrue(any, "no ibsim example nets installed");
    }

    @Test
    void fatTrees() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(run(out, err, "gen", "fat-tree", "--hosts", "8", "--radix", "4", "--guid-base",
                "0xec0d9a0300ec8400", "-o", dir.resolve("two").toString())).as(err.toString()).isZero();
        sameAnswers(dir.resolve("two.topo").toString());
        assertThat(run(out, err, "gen", "fat-tree", "--hosts", "9", "--radix", "4", "--blocking", "3:1", "-o",
                dir.resolve("thin").toString())).as(err.toString()).isZero();
        // the thin tree's leaves have one uplink each and the tenants split it: something is lost there
        assertThat(sameAnswers(dir.resolve("thin.topo").toString())).isPositive();
    }

    /** Each change rehearsed both ways: the reachability answers equal; returns the host pairs ours lost in all. */
    private static long sameAnswers(String file) throws Exception {
        Fabric f = FabricFiles.load(file);
        Node smHost = f.cas().get(0);
        List<String[]> changes = new ArrayList<>();
        for (Link l : f.links()) {
            if (l.a().node().isSwitch() && l.b().node().isSwitch()) {
                changes.add(new String[] {"--pull-cable", ref(l.a())});
                break;
            }
        }
        Node own = smHost.port(1).remote() == null ? null : smHost.port(1).remote().node();
        for (Node n : f.switches()) {
            if (n != own) {
                changes.add(new String[] {"--drain-switch", String.format(Locale.ROOT, "0x%016x", n.guid())});
                break;
            }
        }
        changes.add(new String[] {"--partitions", tenants(f, file).toString()});
        long lost = 0;
        for (String[] c : changes) {
            JsonNode ours = whatIf(file, "ibtwin", c);
            lost += ours.path("reachability").path("lost").asLong();
            JsonNode theirs = whatIf(file, "opensm", c);
            String what = file + " " + String.join(" ", c);
            assertThat(reach(theirs)).as(what).isEqualTo(reach(ours));
            assertThat(theirs.path("exit").asInt()).as(what).isEqualTo(ours.path("exit").asInt());
            assertThat(theirs.path("sm").path("master_after").asText()).as(what)
                    .isEqualTo(ours.path("sm").path("master_after").asText());
        }
        return lost;
    }

    /** A partitions.conf of two tenants (the CA ports split in half), every port a limited Default member but SELF. */
    private static Path tenants(Fabric f, String file) throws Exception {
        List<String> ports = new ArrayList<>();
        for (Node n : f.cas()) {
            for (int i = 1; i <= n.numPorts(); i++) {
                if (n.port(i) != null && n.port(i).link() != null) {
                    ports.add(String.format(Locale.ROOT, "0x%016x", n.port(i).guid()));
                }
            }
        }
        StringBuilder b = new StringBuilder("Default=0x7fff, ipoib : ALL=limited, SELF=full ;\n");
        int half = ports.size() / 2;
        b.append("A=0x8001 :");
        for (int i = 0; i < half; i++) {
            b.append(i == 0 ? " " : ", ").append(ports.get(i)).append("=full");
        }
        b.append(" ;\nB=0x8002 :");
        for (int i = half; i < ports.size(); i++) {
            b.append(i == half ? " " : ", ").append(ports.get(i)).append("=full");
        }
        b.append(" ;\n");
        Path p = dir.resolve(Path.of(file).getFileName() + ".tenants.conf");
        Files.writeString(p, b.toString());
        return p;
    }

    private static String ref(Port p) {
        return String.format(Locale.ROOT, "0x%016x/%d", p.node().guid(), p.number());
    }

    /** The reachability answer: pairs talking before and after, lost and gained, each group's cause and size. */
    private static String reach(JsonNode j) {
        JsonNode r = j.path("reachability");
        StringBuilder b = new StringBuilder();
        b.append("hosts ").append(r.path("hosts")).append(", talk ").append(r.path("talk_before")).append(" -> ")
                .append(r.path("talk_after")).append(", lost ").append(r.path("lost")).append(", gained ")
                .append(r.path("gained"));
        for (String k : new String[] {"lost_by_cause", "gained_by_cause"}) {
            for (JsonNode g : r.path(k)) {
                b.append("; ").append(k).append(' ').append(g.path("cause").asText()).append(' ')
                        .append(g.path("pairs"));
            }
        }
        return b.toString();
    }

    private static JsonNode whatIf(String file, String sm, String[] change) throws Exception {
        List<String> a = new ArrayList<>(List.of("what-if", file, "--sm", sm, "--endpoint-port", PORT, "--json"));
        a.addAll(List.of(change));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = run(out, err, a.toArray(new String[0]));
        assertThat(code).as(sm + " " + a + ": " + err + out).isBetween(0, 1);
        JsonNode j = JSON.readTree(out.toString());
        assertThat(j.path("exit").asInt()).isEqualTo(code);
        return j;
    }

    private static int run(StringWriter out, StringWriter err, String... args) {
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }
}
