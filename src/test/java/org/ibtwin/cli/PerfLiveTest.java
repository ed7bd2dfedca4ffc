package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.lab.Lab;
import org.ibtwin.model.Fabric;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The perftest tools over the fabric as it is: routes from the live LFTs, port states, partitions, all by MADs. */
class PerfLiveTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(Lab lab, String... args) throws Exception {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        PerftestCommand cmd = new PerftestCommand.WriteBw();
        CommandLine cl = new CommandLine(cmd);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        cl.parseArgs(args);
        PerfFabric f = PerfFabric.over(lab.attachTool(null), lab.fabric(), "the lab", cl.getErr(), "ib_write_bw");
        try (f) {
            return cmd.execute(f);
        }
    }

    private String routeLine() {
        for (String l : out.toString().split("\n")) {
            if (l.startsWith("# ibtwin: route ")) {
                return l;
            }
        }
        throw new AssertionError("no route line in " + out);
    }

    @Test
    void aPulledCableFailsTheRunUntilTheSmRoutesAroundIt() throws Exception {
        Fabric f = FabricFiles.loadDefault();
        try (Lab lab = Lab.of(f).start()) {
            assertThat(lab.bringUp().subnetUp()).isTrue();
            assertThat(run(lab, "node027", "node001", "--why")).isZero();
            String before = routeLine();
            assertThat(before).startsWith("# ibtwin: route node001/1 -> leaf01 1/27 -> spine01 4/17 -> leaf02 33/7 "
                    + "-> node027/1 (from the live LFTs of the lab (");
            // the DDR uplink the route takes: pulled, and no SM has swept since
            String spine01 = f.switches().stream().filter(n -> n.description().equals("spine01")).findFirst()
                    .orElseThrow().name();
            lab.twin().unplug(spine01, 17);
            assertThat(run(lab, "node027", "node001", "--why")).isEqualTo(1);
            assertThat(err.toString()).contains(" Completion with error at client\n Failed status 12")
                    .contains("# ibtwin: no route from node001/1 to node027/1: it stops at spine01/17, its link is "
                            + "down (from the live LFTs");
            lab.sm().sweep();
            assertThat(run(lab, "node027", "node001", "--why")).isZero();
            assertThat(routeLine()).startsWith("# ibtwin: route node001/1 -> leaf01 1/").doesNotContain("spine01 4/17")
                    .contains(" -> node027/1 (from the live LFTs of the lab (");
        }
    }

    @Test
    void twoTenantsReachInsideButNotAcross() throws Exception {
        Fabric f = FabricFiles.loadDefault();
        PartitionsConf tenants = PartitionsConf.parse("""
                Default=0x7fff, ipoib : ALL=limited, SELF=full ;
                TenantA=0x8001 : node005=full, node002=full ;
                TenantB=0x8002 : node003=full, node004=full ;
                """.replace("node005", guid(f, "node005")).replace("node002", guid(f, "node002"))
                .replace("node003", guid(f, "node003")).replace("node004", guid(f, "node004")), "tenants.conf");
        try (Lab lab = Lab.of(f).partitions(tenants).start()) {
            assertThat(lab.bringUp().subnetUp()).isTrue();
            // node001 is the SM's port (SELF: a full member of the Default partition)
            assertThat(run(lab, "node002", "node005", "--report_gbits")).isZero();
            assertThat(run(lab, "node004", "node003")).isZero();
            assertThat(run(lab, "node003", "node002", "--why")).isEqualTo(1);
            List<String> e = List.of(err.toString().split("\n"));
            assertThat(e).startsWith(" Completion with error at client", " Failed status 12: wr_id 0 syndrom 0x81");
            assertThat(e.get(e.size() - 1)).startsWith("# ibtwin: node002/1 (P_Keys ").contains("0x8001")
                    .contains("and node003/1 (P_Keys ").contains("0x8002").contains("share no partition");
        }
    }

    @Test
    void aFabricNoSmHasRoutedSaysItsRoutesAreTheModelsOwn() throws Exception {
        Fabric f = FabricFiles.loadDefault();
        try (Lab lab = Lab.of(f).noSm().start()) {
            run(lab, "node002", "node001", "--why");
            assertThat(err.toString()).contains("ib_write_bw: model min-hop: no SM has routed this fabric\n");
        }
    }

    @Test
    void aFabricThatCannotBeReadIsOneLine() {
        for (String tool : new String[] {"ib_write_bw", "ipoib", "perf all-to-all"}) {
            StringWriter o = new StringWriter();
            StringWriter e = new StringWriter();
            List<String> args = new java.util.ArrayList<>(List.of(tool.split(" ")));
            args.addAll(List.of("--ibsim", "127.0.0.1:18398"));
            if (!tool.startsWith("perf")) {
                args.addAll(List.of("node001", "node002"));
            }
            assertThat(Cli.execute(o, e, args.toArray(String[]::new))).as(tool).isEqualTo(1);
            assertThat(e.toString()).as(tool).endsWith(": cannot read ibsim at 127.0.0.1:18398: no ibsim listening "
                    + "at 127.0.0.1:18398\n").doesNotContain("internal error");
        }
    }

    private static String guid(Fabric f, String host) {
        return String.format("0x%016x", f.cas().stream().filter(n -> n.description().startsWith(host + " "))
                .findFirst().orElseThrow().port(1).guid());
    }
}
