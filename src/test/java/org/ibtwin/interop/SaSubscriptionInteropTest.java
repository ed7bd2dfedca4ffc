package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.ibtwin.cli.Cli;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.MgmtClasses;
import org.ibtwin.mad.SaAttributes;
import org.ibtwin.mad.SaComponents;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.transport.IbsimClient;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.ReceivedMad;
import org.ibtwin.transport.Smp;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * InformInfo subscriptions, trap forwarding, GUIDInfoRecords (alias GUIDs) and SA/SM keys, against real OpenSM's SA
 * and ours, each on a fresh real ibsim of the same four-CA fabric, doing the same things in the same order:
 * h3 subscribes (generic: every trap; vendor: device 0x90 of 0x02C903) and ends one it never had; real
 * {@code saquery -I} and {@code IIR <gid>}; h4 sends trap 144 and h3 gets the SA's Report (answered with a
 * ReportResp); h3 assigns alias GUIDs (one given, one the SA picks), tries to change its port GUID and removes one;
 * real {@code saquery GIR}; a query with a wrong SM_Key (dropped: saquery times out) and SubnGet(SMInfo) with a
 * wrong key. Every status, record, Report and real tool's output must be the same from both SAs; and
 * {@code ibtwin saquery} prints what real saquery prints for -I, -S and GIR.
 *
 * <p>h3 attaches to ibsim as an SM port: ibsim hands an SA request (the Report) to no other client.
 */
@Tag("interop")
class SaSubscriptionInteropTest {
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(20);
    private static final Layout II = SaAttributes.INFORM_INFO;
    private static final Layout GIR = SaAttributes.GUID_INFO_RECORD;
    private static final int GIR_ID = AttributeIds.GUID_INFO_RECORD;
    private static final HexFormat HEX = HexFormat.of();

    private static Path saquery;
    private static RealTools tools;

    @BeforeAll
    static void findTools() {
        saquery = RealTools.diagOrSkip("saquery");
        tools = RealTools.findOrSkip();
    }

    private static RemoteIbsim sim(Path dir) throws Exception {
        return RemoteIbsim.fourCas(tools.ibsim, dir, 26210, 26280);
    }

    private static byte[] informInfo(boolean generic, int number, int producer, boolean subscribe) {
        byte[] r = new byte[II.size()];
        II.set(r, 0, "InformLIDRangeBegin", 0xffff);
        II.set(r, 0, "InformIsGeneric", generic ? 1 : 0);
        II.set(r, 0, "InformSubscribe", subscribe ? 1 : 0);
        II.set(r, 0, "InformType", 0xffff);
        II.set(r, 0, "InformTrapNumber", number);
        II.set(r, 0, "InformQPN", 1);
        II.set(r, 0, "InformRespTimeVal", 18);
        II.set(r, 0, "InformProducerType", producer);
        return r;
    }

    private static String result(String what, MadQuery.SaResult r, int size) {
        return what + ": status 0x" + Integer.toHexString(r.status()) + " "
                + HEX.formatHex(Arrays.copyOf(r.data(), Math.min(size, r.data().length)));
    }

    private static String real(int port, Path dir, String host, String... args) throws Exception {
        UmadClient c = new UmadClient(tools.umad2sim, port, dir, host, TOOL_TIMEOUT);
        UmadClient.Result r = c.run(saquery, args);
        assertThat(r.timedOut()).as(r.command()).isFalse();
        return "saquery " + String.join(" ", args) + " exit " + r.exit() + "\n" + r.out() + "--- stderr\n"
                + r.err().replaceAll("ibwarn: \\[\\d+]", "ibwarn: [pid]");
    }

    /** ibtwin saquery prints what real saquery prints, from the same SA. */
    private static void samePrint(int port, Path dir, List<String> checked, String... args) throws Exception {
        UmadClient c = new UmadClient(tools.umad2sim, port, dir, "H-h2", TOOL_TIMEOUT);
        UmadClient.Result r = c.run(saquery, args);
        List<String> a = new ArrayList<>(List.of("saquery", "--ibsim", RemoteIbsim.HOST + ":" + port, "--sim-host",
                "H-h2"));
        a.addAll(List.of(args));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = Cli.execute(out, err, a.toArray(String[]::new));
        assertThat(out.toString()).as("ibtwin " + a + " (stderr " + err + ")").isEqualTo(r.out());
        assertThat(rc).as("ibtwin " + a + " exit").isEqualTo(r.exit());
        checked.add(String.join(" ", args));
    }

    /** Everything the scenario saw, one entry per step ({@code ours}: the SA is ours). */
    private static List<String> scenario(int port, Path dir, List<String> printed, boolean ours) throws Exception {
        List<String> seen = new ArrayList<>();
        try (IbsimClient h3 = IbsimClient.connect(RemoteIbsim.HOST, port, "H-h3", true);
             IbsimClient h4 = IbsimClient.connect(RemoteIbsim.HOST, port, "H-h4", false)) {
            BlockingQueue<ReceivedMad> got = new LinkedBlockingQueue<>();
            h3.onUnsolicited(got::add);
            int sm = h3.localPort().smLid();
            int h3Lid = h3.localPort().lid();
            int h4Lid = h4.localPort().lid();
            MadQuery q = new MadQuery(h3);
            int ii = AttributeIds.INFORM_INFO;
            seen.add(result("subscribe to every trap",
                    q.saQuery(sm, Methods.SET, ii, 0, 0, 0, informInfo(true, 0xffff, 0xffffff, true)), 36));
            seen.add(result("subscribe to vendor device 0x90",
                    q.saQuery(sm, Methods.SET, ii, 0, 0, 0, informInfo(false, 0x90, 0x02c903, true)), 36));
            seen.add(result("end a subscription never made",
                    q.saQuery(sm, Methods.SET, ii, 0, 0, 0, informInfo(true, 130, 0xffffff, false)), 36));
            seen.add(real(port, dir, "H-h2", "-I"));
            seen.add(real(port, dir, "H-h2", "IIR", "fe80::10:5"));
            seen.add(real(port, dir, "H-h2", "IIR", "fe80::10:3"));
            samePrint(port, dir, printed, "-I");
            samePrint(port, dir, printed, "IIR", "fe80::10:5");

            // h4 tells the SM its capability mask changed; the SA reports it to h3's generic subscription
            got.clear();
            Layout n = SmpAttributes.NOTICE_TRAP_144;
            byte[] trap = new byte[MadHeaders.MAD_SIZE];
            MadHeaders.MAD.set(trap, 0, "MadBaseVersion", 1);
            MadHeaders.MAD.set(trap, 0, "MadMgmtClass", MgmtClasses.SUBN_LID);
            MadHeaders.MAD.set(trap, 0, "MadClassVersion", 1);
            MadHeaders.MAD.set(trap, 0, "MadMethod", Methods.TRAP);
            MadHeaders.MAD.set(trap, 0, "MadTRID", h4.nextTid());
            MadHeaders.MAD.set(trap, 0, "MadAttr", AttributeIds.NOTICE);
            int at = MadHeaders.SMP_DATA_OFFSET;
            n.set(trap, at, "NoticeIsGeneric", 1);
            n.set(trap, at, "NoticeType", 4);
            n.set(trap, at, "NoticeProducerType", 1);
            n.set(trap, at, "NoticeTrapNumber", 144);
            n.set(trap, at, "NoticeIssuerLID", h4Lid);
            n.set(trap, at, "NoticeDataTrap144LID", h4Lid);
            n.set(trap, at, "NoticeDataTrap144CapMask", 0x02010048L);
            h4.send(trap, MadAddress.smp(sm));
            List<String> reports = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (System.nanoTime() < deadline) {
                ReceivedMad m = got.poll(100, TimeUnit.MILLISECONDS);
                if (m == null || MadHeaders.mgmtClass(m.mad()) != MgmtClasses.SUBN_ADM
                        || MadHeaders.method(m.mad()) != Methods.REPORT) {
                    continue;
                }
                byte[] mad = m.mad();
                byte[] notice = Arrays.copyOfRange(mad, MadHeaders.SA_DATA_OFFSET,
                        MadHeaders.SA_DATA_OFFSET + SaAttributes.NOTICE.size());
                byte[] resp = Arrays.copyOf(mad, MadHeaders.MAD_SIZE);
                resp[3] = (byte) Methods.REPORT_RESP;
                h3.send(resp, m.from());
                if (SaAttributes.NOTICE.get(notice, 0, "NoticeIssuerLID") == h4Lid) {
                    reports.add("Report from " + (m.from().lid() == sm ? "the SM" : "LID " + m.from().lid()) + " attr 0x"
                            + Integer.toHexString(MadHeaders.attributeId(mad)) + ": " + HEX.formatHex(notice));
                }
            }
            seen.add(reports.size() + " reports of h4's trap\n" + String.join("\n", reports));

            // alias GUIDs: one given, one picked by the SA; the port GUID cannot change; then one removed
            long mask = SaComponents.bit(GIR_ID, "Lid") | SaComponents.bit(GIR_ID, "BlockNum")
                    | SaComponents.bit(GIR_ID, "Guid1") | SaComponents.bit(GIR_ID, "Guid2");
            byte[] r = new byte[GIR.size()];
            GIR.set(r, 0, "Lid", h3Lid);
            GIR.set(r, 0, "Guid1", 0x0002c90300001234L);
            seen.add(result("assign two alias GUIDs", q.saQuery(sm, Methods.SET, GIR_ID, 0, mask, 0, r), 72));
            byte[] other = new byte[GIR.size()];
            GIR.set(other, 0, "Lid", RemoteIbsim.lid(port, "H-h2"));
            GIR.set(other, 0, "Guid1", 0x0002c90300001234L);
            seen.add(result("h3's alias again, for h2", q.saQuery(sm, Methods.SET, GIR_ID, 0, mask, 1, other), 72));
            byte[] port0 = r.clone();
            GIR.set(port0, 0, "Guid0", 0x0002c90300005678L);
            seen.add(result("change the port GUID", q.saQuery(sm, Methods.SET, GIR_ID, 0,
                    mask | SaComponents.bit(GIR_ID, "Guid0"), 0, port0), 72));
            seen.add(result("remove the first alias", q.saQuery(sm, Methods.DELETE, GIR_ID, 0,
                    SaComponents.bit(GIR_ID, "Lid") | SaComponents.bit(GIR_ID, "BlockNum")
                            | SaComponents.bit(GIR_ID, "Guid1"), 0, r), 72));
            // (the whole table is left out: the two SMs number the switch and the SM's port the other way round)
            seen.add(real(port, dir, "H-h2", "GIR", h3Lid + "/0"));
            seen.add(real(port, dir, "H-h2", "GIR", RemoteIbsim.lid(port, "H-h2") + "/0"));
            String sw = Integer.toString(switchLid(q, sm));
            // the switch's LID is not the same from both SMs: the rest of the record is
            seen.add(real(port, dir, "H-h2", "GIR", sw).replace("GIR " + sw + " exit", "GIR <switch> exit")
                    .replace("LID........................" + sw + "\n", "LID........................<switch>\n"));
            samePrint(port, dir, printed, "GIR", h3Lid + "/0");
            samePrint(port, dir, printed, "GIR", RemoteIbsim.lid(port, "H-h2") + "/0");

            // keys: a wrong non-zero SM_Key is dropped; the right one (1) is trusted; SMInfo as each SM answers it
            seen.add(real(port, dir, "H-h2", "--smkey", "2", "SMIR"));
            seen.add(real(port, dir, "H-h2", "--smkey", "1", "-I"));
            byte[] data = new byte[Smp.DATA_SIZE];
            SmpAttributes.SM_INFO.set(data, 0, "SmInfoKey", 2);
            byte[] get = Smp.request(h4.nextTid(), Methods.GET, AttributeIds.SM_INFO, 0, new byte[] {1, 1}, data, 0);
            byte[] smInfo = h4.call(get, MadAddress.directed(), Duration.ofSeconds(1), 2);
            Layout si = SmpAttributes.SM_INFO;
            seen.add(String.format("SMInfo to a Get with SM_Key 2: status %d guid 0x%016x key 0x%016x priority %d "
                    + "state %d", Smp.status(smInfo), si.get(smInfo, Smp.DATA, "SmInfoGuid"),
                    si.get(smInfo, Smp.DATA, "SmInfoKey"), si.get(smInfo, Smp.DATA, "SmPriority"),
                    si.get(smInfo, Smp.DATA, "SmState")));

            // a service, printed by ibtwin saquery -S as by real saquery
            seen.add(result("register a service", q.saQuery(sm, Methods.SET, AttributeIds.SERVICE_RECORD, 0,
                    serviceMask(), 0, service()), 24));
            seen.add(real(port, dir, "H-h2", "-S"));
            if (ours) {
                // from OpenSM's SA, ibtwin saquery reads ServiceData64.2 as bytes the MAD holds there (not 0), where
                // real saquery through libumad2sim prints 0; from ours both read the record as registered
                samePrint(port, dir, printed, "-S");
            }
        }
        return seen;
    }

    /** The switch's LID, from the SA's NodeRecord of NodeType 2 (one record: one MAD, whatever the SA). */
    private static int switchLid(MadQuery q, int sm) {
        Layout nr = SaAttributes.NODE_RECORD;
        byte[] t = new byte[nr.size()];
        nr.set(t, 0, "NodeType", 2);
        MadQuery.SaResult r = q.saQuery(sm, Methods.GET_TABLE, AttributeIds.NODE_RECORD, 0,
                SaComponents.bit(AttributeIds.NODE_RECORD, "NodeType"), 0, t);
        for (byte[] rec : r.records(nr.size())) {
            if (nr.get(rec, 0, "NodeType") == 2) {
                return (int) nr.get(rec, 0, "Lid");
            }
        }
        throw new AssertionError("no switch among the NodeRecords");
    }

    private static byte[] service() {
        Layout sr = SaAttributes.SERVICE_RECORD;
        byte[] r = SaServiceInteropTest.serviceRecord(0x05, 0xffff, "ibtwin-subscriber");
        byte[] d = new byte[64];
        for (int i = 0; i < 56; i++) {
            d[i] = (byte) (0xa0 + i);
        }
        sr.setBytes(r, 0, "ServRecData", d);
        return r;
    }

    private static long serviceMask() {
        long mask = SaServiceInteropTest.serviceMask();
        // and ServiceData8/16/32/64, components 7..36
        for (int bit = 7; bit <= 36; bit++) {
            mask |= 1L << bit;
        }
        return mask;
    }

    @Test
    void subscriptionsReportsAliasGuidsAndKeysAreAnsweredByOurSaAsByOpenSms(@TempDir Path dir) throws Exception {
        List<String> opensm;
        List<String> printed = new ArrayList<>();
        Path osmDir = Files.createDirectories(dir.resolve("opensm"));
        try (RemoteIbsim ibsim = sim(osmDir)) {
            int port = ibsim.port();
            Process osm = RealTools.opensmWithSa(tools, port, osmDir, "Default=0x7fff : ALL=full ;\n",
                    TOOL_TIMEOUT);
            try {
                opensm = scenario(port, osmDir, printed, false);
            } finally {
                RealTools.stop(osm);
            }
        }
        Path ourDir = Files.createDirectories(dir.resolve("ours"));
        List<String> ours;
        try (RemoteIbsim ibsim = sim(ourDir)) {
            int port = ibsim.port();
            try (IbsimClient smPort = IbsimClient.connect(RemoteIbsim.HOST, port, "H-h1", true)) {
                SubnetManager sm = new SubnetManager(smPort, SmConfig.defaults(), null);
                sm.smKey(1);
                assertThat(sm.sweep().subnetUp()).isTrue();
                ours = scenario(port, ourDir, printed, true);
                assertThat(sm.sa().reportsAcknowledged()).as("ReportResps taken").isPositive();
                assertThat(sm.sa().refusedKeys()).as("the query with SM_Key 2").isEqualTo(1);
                sm.detach();
            }
        }
        assertThat(opensm.get(6)).as("OpenSM reports h4's trap to the generic subscription")
                .startsWith("1 reports");
        assertThat(String.join("\n", opensm)).contains("0002c90300001234", "0014050000000001", "ibtwin-subscriber");
        for (int i = 0; i < opensm.size(); i++) {
            assertThat(ours.get(i)).as("step " + i).isEqualTo(opensm.get(i));
        }
        assertThat(ours).hasSameSizeAs(opensm);
        assertThat(printed).hasSize(9);
    }
}
