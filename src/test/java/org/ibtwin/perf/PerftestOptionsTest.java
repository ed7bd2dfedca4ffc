package org.ibtwin.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.HostFacts;
import org.ibtwin.model.IpoibMode;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.Mtu;
import org.ibtwin.model.Node;
import org.ibtwin.model.PcieGen;
import org.ibtwin.perf.PerftestOptions.Given;
import org.ibtwin.perf.PerftestOptions.Notice;
import org.ibtwin.perf.PerftestOptions.Resolved;
import org.ibtwin.perf.PerftestReport.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

/** perftest's defaults, limits, refusals and notices, from the options and the two hosts' ports. */
class PerftestOptionsTest {
    /** Options built up one at a time, as a command line gives them. */
    private static final class Opts {
        String size;
        boolean all;
        String iters;
        String duration;
        String margin;
        String qps;
        String mtu;
        String connection;
        String inline;
        boolean bidirectional;
        String txDepth;
        String cqMod;
        String outs;
        String atomicType;
        String gidIndex;
        boolean noPeak;
        boolean reportGbits;
        String numa = "near";
        String ibPort;
        String device;
        String plot;

        Given given() {
            return new Given(size, all, iters, duration, margin, qps, mtu, connection, inline, bidirectional, txDepth,
                    cqMod, outs, atomicType, gidIndex, noPeak, reportGbits, numa, ibPort, device, plot);
        }
    }

    private static Opts opts() {
        return new Opts();
    }

    /** Options from "field=value ..." (Opts' field names; a boolean's value is true or false). */
    private static Opts opts(String given) throws ReflectiveOperationException {
        Opts o = opts();
        for (String fv : given.split(" ")) {
            String[] p = fv.split("=", 2);
            java.lang.reflect.Field f = Opts.class.getDeclaredField(p[0]);
            f.set(o, f.getType() == boolean.class ? (Object) Boolean.parseBoolean(p[1]) : p[1]);
        }
        return o;
    }

    private final Bench bench = Bench.backToBack(LinkSpeed.HDR, PcieGen.GEN4, 16);
    private final Fabric fabric = bench.fabric;
    private final Node server = bench.server;
    private final Node client = bench.client;

    private Resolved run(Op op, Kind kind, Opts o) {
        Given g = o.given();
        return PerftestOptions.resolve(op, kind, g, PerftestOptions.settle(op, kind, g), client.port(1),
                server.port(1));
    }

    private static void refused(Op op, Kind kind, Opts o, String message) {
        assertThatThrownBy(() -> PerftestOptions.settle(op, kind, o.given()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }

    @Test
    void bandwidthDefaultsAsPerftestsParserSetsThem() {
        Resolved r = run(Op.WRITE, Kind.BW, opts());
        assertThat(r.sizes()).containsExactly(65536L);
        assertThat(r.iters()).isEqualTo(5000);
        assertThat(r.qps()).isEqualTo(1);
        assertThat(r.txDepth()).isEqualTo(128);
        // a message over 8 KiB: a completion per send
        assertThat(r.cqMod()).isEqualTo(1);
        assertThat(r.inline()).isZero();
        assertThat(r.mtu()).isEqualTo(4096);
        assertThat(r.transport()).isEqualTo(Transport.RC);
        assertThat(r.peak()).isTrue();
        assertThat(r.gid()).isFalse();
        assertThat(r.device()).isEqualTo("mlx5_0");
        assertThat(r.outReads()).isEqualTo(r.clientEnd().hca().maxOutReads());
        assertThat(r.notices()).isEmpty();
        assertThat(run(Op.READ, Kind.BW, opts()).iters()).isEqualTo(1000);
        Opts small = opts();
        small.size = "4K";
        assertThat(run(Op.WRITE, Kind.BW, small).cqMod()).isEqualTo(100);
    }

    @Test
    void latencyDefaultsAndTheInlineSizes() {
        Resolved w = run(Op.WRITE, Kind.LAT, opts());
        assertThat(w.sizes()).containsExactly(2L);
        assertThat(w.iters()).isEqualTo(1000);
        assertThat(w.txDepth()).isEqualTo(1);
        assertThat(w.inline()).isEqualTo(220);
        assertThat(run(Op.SEND, Kind.LAT, opts()).inline()).isEqualTo(236);
        Opts ud = opts();
        ud.connection = "UD";
        assertThat(run(Op.SEND, Kind.LAT, ud).inline()).isEqualTo(188);
        assertThat(run(Op.READ, Kind.LAT, opts()).inline()).isZero();
        assertThat(run(Op.ATOMIC, Kind.LAT, opts()).sizes()).containsExactly((long) Headers.ATOMIC_SIZE);
        assertThat(run(Op.ATOMIC, Kind.BW, opts()).atomic()).isEqualTo("FETCH_AND_ADD");
        Opts cas = opts();
        cas.atomicType = "cmp_and_swap";
        assertThat(run(Op.ATOMIC, Kind.BW, cas).atomic()).isEqualTo("CMP_AND_SWAP");
    }

    @Test
    void optionsThatDependOnOthers() {
        Opts few = opts();
        few.iters = "100";
        few.cqMod = "1000";
        Resolved r = run(Op.WRITE, Kind.BW, few);
        assertThat(r.txDepth()).isEqualTo(100);
        assertThat(r.cqMod()).isEqualTo(100);
        Opts bi = opts();
        bi.bidirectional = true;
        assertThat(run(Op.SEND, Kind.BW, bi).rxDepth()).isEqualTo(512);
        assertThat(run(Op.WRITE, Kind.BW, bi).rxDepth()).isZero();
        bi.iters = "7";
        assertThat(run(Op.SEND, Kind.BW, bi).rxDepth()).isEqualTo(8);
        Opts uc = opts();
        uc.bidirectional = true;
        uc.connection = "UC";
        uc.iters = "1001";
        assertThat(run(Op.SEND, Kind.BW, uc).rxDepth()).isEqualTo(1002);
        Opts many = opts();
        many.iters = "30000";
        assertThat(run(Op.WRITE, Kind.BW, many).peak()).isFalse();
        Opts timed = opts();
        timed.duration = "10";
        Resolved d = run(Op.WRITE, Kind.BW, timed);
        assertThat(d.durationSec()).isEqualTo(10);
        assertThat(d.measuredSec()).isEqualTo(10 - 2 * 2);
        assertThat(d.peak()).isFalse();
        assertThat(d.txDepth()).isEqualTo(128);
        Opts all = opts();
        all.all = true;
        assertThat(run(Op.WRITE, Kind.BW, all).sizes()).hasSize(23).startsWith(2L, 4L).endsWith(1L << 23);
        all.connection = "UD";
        assertThat(run(Op.SEND, Kind.BW, all).sizes()).hasSize(12).endsWith(4096L);
        Opts gid = opts();
        gid.gidIndex = "3";
        assertThat(run(Op.WRITE, Kind.BW, gid).gid()).isTrue();
    }

    @Test
    void noticesAsPerftestPrintsThem() {
        Opts inl = opts();
        inl.connection = "UD";
        inl.inline = "900";
        inl.size = "1024";
        Resolved r = run(Op.SEND, Kind.BW, inl);
        assertThat(PerftestOptions.settle(Op.SEND, Kind.BW, inl.given()).notices()).containsExactly(
                new Notice(PerftestReport.RESULT_LINE, "Setting inline size to 884 (Max inline size in UD)\n"));
        assertThat(r.inline()).isEqualTo(884);
        Opts ud = opts();
        ud.connection = "UD";
        Resolved big = run(Op.SEND, Kind.BW, ud);
        assertThat(big.sizes()).containsExactly(4096L);
        assertThat(big.notices()).containsExactly(new Notice("", " Max msg size in UD is MTU 4096\n"
                + " Changing to this MTU\n"));
        Opts outs = opts();
        outs.outs = "100";
        Resolved reads = run(Op.READ, Kind.BW, outs);
        int max = reads.clientEnd().hca().maxOutReads();
        assertThat(reads.outReads()).isEqualTo(max);
        assertThat(reads.notices()).containsExactly(new Notice(PerftestReport.RESULT_LINE,
                " Number of outstanding reads is above max = " + max + "\n Changing to that max value\n"));
        client.port(1).setMtuCap(Mtu.MTU2048);
        Opts m = opts();
        m.mtu = "4096";
        Resolved lower = run(Op.WRITE, Kind.BW, m);
        assertThat(lower.mtu()).isEqualTo(2048);
        assertThat(lower.notices()).containsExactly(new Notice("Requested mtu is higher than active mtu \n"
                + "Changing to active mtu - 4\n", ""));
        m.mtu = "1024";
        assertThat(run(Op.WRITE, Kind.BW, m).mtu()).isEqualTo(1024);
        assertThat(run(Op.WRITE, Kind.BW, opts()).mtu()).isEqualTo(2048);
    }

    /** Each refusal in perftest's words, for the options given (a row of /perf/perftest-refusals.csv). */
    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvFileSource(resources = "/perf/perftest-refusals.csv")
    void refusalsInPerftestsWords(Op op, Kind kind, String given, String message) throws Exception {
        refused(op, kind, opts(given), message);
    }

    @Test
    void sizesAsPerftestParsesThem() {
        Opts s = opts();
        s.size = "3M";
        assertThat(PerftestOptions.settle(Op.WRITE, Kind.BW, s.given()).firstSize()).isEqualTo(3L << 20);
        assertThat(PerftestOptions.parseSize("010")).isEqualTo(8);
    }

    @Test
    void whatTheDevicesRefuse() {
        Opts ud = opts();
        ud.connection = "UD";
        ud.size = "8192";
        assertThatThrownBy(() -> run(Op.SEND, Kind.BW, ud)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Max message size in UD cannot be greater than MTU (4096)");
        Opts dev = opts();
        dev.device = "mlx4_0";
        assertThatThrownBy(() -> run(Op.WRITE, Kind.BW, dev)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("-d: node002 has no device mlx4_0 (it has mlx5_0)");
        Opts far = opts();
        far.numa = "far";
        client.setHostFacts(new HostFacts(PcieGen.GEN4, 16, 256, 0, 1, 1, 32, IpoibMode.CONNECTED, 65520, true,
                false, false));
        assertThatThrownBy(() -> run(Op.WRITE, Kind.BW, far)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--numa far: node002 has a single NUMA node");
        client.setHostFacts(HostFacts.DEFAULT);
        fabric.disconnect(client.port(1).link());
        assertThatThrownBy(() -> run(Op.WRITE, Kind.BW, opts())).isInstanceOf(PerftestOptions.NoLink.class)
                .hasMessage("node002/1 is down (physical state Polling): no link, perftest cannot connect")
                .extracting(e -> ((PerftestOptions.NoLink) e).port()).isEqualTo(client.port(1));
        assertThat(List.of(PerftestOptions.MAX_QP, PerftestOptions.MAX_INLINE_UD)).containsExactly(16384, 884);
    }
}
