package org.ibtwin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.SaAttributes;
import org.ibtwin.mad.SaComponents;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.transport.IbsimClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ServiceRecords: the same service registered (by ibtwin's SA client, as real saquery cannot register one) with real
 * OpenSM's SA and with ours, each on a fresh real ibsim of the same fabric; real {@code saquery -S} from a member of
 * the service's partition and from a port outside it prints the same from both SAs.
 */
@Tag("interop")
class SaServiceInteropTest {
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(20);
    /** h2 and h3 in blue; h4 not. */
    private static final String PARTITIONS = """
            Default=0x7fff : ALL=full ;
            blue=0x0010 : 0x0000000000100003=full, 0x0000000000100005=full ;
            """;
    private static final Layout SR = SaAttributes.SERVICE_RECORD;
    private static final int A = AttributeIds.SERVICE_RECORD;

    private static RealTools tools;
    private static Path saquery;

    @BeforeAll
    static void findTools() {
        tools = RealTools.findOrSkip();
        saquery = RealTools.diagOrSkip("saquery");
    }

    private static RemoteIbsim sim(Path dir) throws Exception {
        return RemoteIbsim.fourCas(tools.ibsim, dir, 25240, 25290);
    }

    /** h2 registers a blue service at its own GID, for ever; returns the SA's status. */
    private static int register(int port, int smLid) {
        byte[] r = serviceRecord(0x03, 0x8010, "ibtwin-test-service");   // at h2's port, 0x0000000000100003
        long mask = serviceMask();
        try (IbsimClient h2 = IbsimClient.connect(RemoteIbsim.HOST, port, "H-h2", false)) {
            return new MadQuery(h2).saQuery(smLid, Methods.SET, A, 0, mask, 0, r).status();
        }
    }

    /**
     * A ServiceRecord of ServiceID 0x1000000000000abc at the GID of port GUID 0x00000000001000{@code guidLow}, of
     * P_Key {@code pkey}, for ever, named {@code name}.
     */
    static byte[] serviceRecord(int guidLow, int pkey, String name) {
        byte[] r = new byte[SR.size()];
        SR.set(r, 0, "ServRecID", 0x1000000000000abcL);
        byte[] gid = new byte[16];
        gid[0] = (byte) 0xfe;
        gid[1] = (byte) 0x80;
        gid[13] = 0x10;
        gid[15] = (byte) guidLow;
        SR.setBytes(r, 0, "ServRecGid", gid);
        SR.set(r, 0, "ServRecPkey", pkey);
        SR.set(r, 0, "ServRecLease", 0xffffffffL);
        byte[] n = name.getBytes(StandardCharsets.US_ASCII);
        byte[] field = new byte[64];
        System.arraycopy(n, 0, field, 0, n.length);
        SR.setBytes(r, 0, "ServRecName", field);
        return r;
    }

    /** The components {@link #serviceRecord} gives: ServiceID, GID, P_Key, lease and name. */
    static long serviceMask() {
        return SaComponents.bit(A, "ServRecID") | SaComponents.bit(A, "ServRecGid")
                | SaComponents.bit(A, "ServRecPkey") | SaComponents.bit(A, "ServRecLease")
                | SaComponents.bit(A, "ServRecName");
    }

    /** Real saquery -S from h2 and from h4: exit, stdout and stderr of each. */
    private static List<String> views(int port, Path dir) throws Exception {
        List<String> out = new ArrayList<>();
        for (String host : new String[] {"H-h2", "H-h4"}) {
            UmadClient c = new UmadClient(tools.umad2sim, port, dir, host, TOOL_TIMEOUT);
            UmadClient.Result r = c.run(saquery, "-S");
            assertThat(r.timedOut()).as(r.command()).isFalse();
            out.add(host + " exit " + r.exit() + "\n" + r.out() + "--- stderr\n"
                    + r.err().replaceAll("ibwarn: \\[\\d+]", "ibwarn: [pid]"));
        }
        return out;
    }

    private static int smLid(int port) {
        try (IbsimClient c = IbsimClient.connect(RemoteIbsim.HOST, port, "H-h1", false)) {
            return c.localPort().lid();
        }
    }

    @Test
    void realSaqueryShowsTheSameServiceRecordsFromOurSaAsFromOpenSms(@TempDir Path dir) throws Exception {
        List<String> opensm;
        Path osmDir = Files.createDirectories(dir.resolve("opensm"));
        try (RemoteIbsim ibsim = sim(osmDir)) {
            int port = ibsim.port();
            Process osm = RealTools.opensmWithSa(tools, port, osmDir, PARTITIONS, TOOL_TIMEOUT);
            try {
                assertThat(register(port, smLid(port))).as("OpenSM's SA took the service").isZero();
                opensm = views(port, osmDir);
            } finally {
                RealTools.stop(osm);
            }
        }
        Path ourDir = Files.createDirectories(dir.resolve("ours"));
        try (RemoteIbsim ibsim = sim(ourDir)) {
            int port = ibsim.port();
            try (IbsimClient smPort = IbsimClient.connect(RemoteIbsim.HOST, port, "H-h1", true)) {
                SubnetManager sm = new SubnetManager(smPort, SmConfig.defaults(), null);
                sm.partitions(PartitionsConf.parse(PARTITIONS, "partitions.conf"));
                assertThat(sm.sweep().subnetUp()).isTrue();
                assertThat(register(port, smLid(port))).as("our SA took the service").isZero();
                List<String> ours = views(port, ourDir);
                assertThat(ours.get(0)).as("h2 sees the service").contains("ibtwin-test-service");
                assertThat(ours).isEqualTo(opensm);
                sm.detach();
            }
        }
    }
}
