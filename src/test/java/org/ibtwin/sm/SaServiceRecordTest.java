package org.ibtwin.sm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.ibtwin.fixture.GidBytes;
import org.ibtwin.fixture.TwinFabric;
import org.ibtwin.diag.MadQuery;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.fixture.TwinFabric;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadStatus;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.SaAttributes;
import org.ibtwin.mad.SaComponents;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.transport.MadTransport;
import org.junit.jupiter.api.Test;

/** ServiceRecords at ibtwin's SA: register, look up, delete, leases running out, partitions. */
class SaServiceRecordTest {
    private static final Layout SR = SaAttributes.SERVICE_RECORD;
    private static final int A = AttributeIds.SERVICE_RECORD;
    private static final long ID = SaComponents.bit(A, "ServRecID");
    private static final long GID = SaComponents.bit(A, "ServRecGid");
    private static final long PKEY = SaComponents.bit(A, "ServRecPkey");
    private static final long NAME = SaComponents.bit(A, "ServRecName");

    private static byte[] service(long id, Node host, int pkey, long lease, String name) {
        byte[] r = new byte[SR.size()];
        SR.set(r, 0, "ServRecID", id);
        SR.setBytes(r, 0, "ServRecGid", GidBytes.linkLocal(host.port(1).guid()));
        SR.set(r, 0, "ServRecPkey", pkey);
        SR.set(r, 0, "ServRecLease", lease);
        byte[] n = new byte[64];
        byte[] s = name.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(s, 0, n, 0, s.length);
        SR.setBytes(r, 0, "ServRecName", n);
        return r;
    }

    private static List<byte[]> table(MadQuery q, int smLid, long mask, long smKey, byte[] t) {
        MadQuery.SaResult r = q.saQuery(smLid, Methods.GET_TABLE, A, 0, mask, smKey, t);
        assertThat(r.status()).isZero();
        return r.records(SR.size());
    }

    @Test
    void servicesAreRegisteredFoundDeletedAndGoneWhenTheirLeaseRunsOut() {
        Fabric fabric = FatTree.build(FatTreeSpec.of(2, 4, 8));
        Node a = fabric.cas().get(1);
        Node b = fabric.cas().get(2);
        String conf = String.format("Default=0x7fff : ALL=full ;%nblue=0x0010 : 0x%016x=full ;%n", a.port(1).guid());
        try (TwinFabric f = new TwinFabric(fabric)) {
            SubnetManager sm = f.sm(SmConfig.defaults());
            sm.partitions(PartitionsConf.parse(conf, "partitions.conf"));
            AtomicLong now = new AtomicLong(1_000_000_000L);
            sm.sa().services().clock(now::get);
            int smLid = sm.sweep().smLid();
            try (MadTransport ta = f.attach(a.name()); MadTransport tb = f.attach(b.name())) {
                MadQuery qa = new MadQuery(ta);
                MadQuery qb = new MadQuery(tb);
                // too few components: 0x0300; a GID no port has: 0x0200
                byte[] s1 = service(0x1000000000000001L, a, 0xffff, 60, "storage");
                assertThat(qa.saQuery(smLid, Methods.SET, A, 0, ID, 0, s1).status())
                        .isEqualTo(MadStatus.SA_INSUFFICIENT_COMPONENTS);
                byte[] stray = s1.clone();
                SR.setBytes(stray, 0, "ServRecGid", GidBytes.linkLocal(0xec0d9a0300ec8480L));
                assertThat(qa.saQuery(smLid, Methods.SET, A, 0, ID | GID, 0, stray).status())
                        .isEqualTo(MadStatus.SA_REQ_INVALID);
                MadQuery.SaResult set = qa.saQuery(smLid, Methods.SET, A, 0, ID | GID | PKEY | NAME, 0, s1);
                assertThat(set.status()).isZero();
                assertThat(SR.get(set.records(SR.size()).get(0), 0, "ServRecID")).isEqualTo(0x1000000000000001L);
                byte[] s2 = service(0x1000000000000002L, a, 0x8010, 0xffffffffL, "blue-db");
                assertThat(qa.saQuery(smLid, Methods.SET, A, 0, ID | GID | PKEY, 0, s2).status()).isZero();

                // a sees both; b (not in blue) sees the Default one only, trusted it sees both
                assertThat(table(qa, smLid, 0, 0, new byte[SR.size()])).hasSize(2);
                assertThat(table(qb, smLid, 0, 0, new byte[SR.size()]))
                        .extracting(r -> SR.get(r, 0, "ServRecID")).containsExactly(0x1000000000000001L);
                assertThat(table(qb, smLid, 0, 1, new byte[SR.size()])).hasSize(2);
                // by name; Get of one
                byte[] byName = service(0, a, 0, 0, "blue-db");
                assertThat(table(qa, smLid, NAME, 0, byName)).extracting(r -> SR.get(r, 0, "ServRecID"))
                        .containsExactly(0x1000000000000002L);
                MadQuery.SaResult one = qa.saQuery(smLid, Methods.GET, A, 0, ID, 0, s1);
                assertThat(one.status()).isZero();

                // the lease left shows; at 60 s the first is gone, the indefinite one stays
                now.addAndGet(20_000_000_000L);
                byte[] left = table(qa, smLid, ID, 0, s1).get(0);
                assertThat(SR.get(left, 0, "ServRecLease")).isEqualTo(40);
                now.addAndGet(40_000_000_000L);
                assertThat(table(qa, smLid, 0, 0, new byte[SR.size()])).extracting(r -> SR.get(r, 0, "ServRecID"))
                        .containsExactly(0x1000000000000002L);

                // delete: the record comes back; a second time there is none
                MadQuery.SaResult del = qa.saQuery(smLid, Methods.DELETE, A, 0, ID | GID | PKEY, 0, s2);
                assertThat(del.status()).isZero();
                assertThat(qa.saQuery(smLid, Methods.DELETE, A, 0, ID | GID | PKEY, 0, s2).status())
                        .isEqualTo(MadStatus.SA_NO_RECORDS);
                assertThat(sm.sa().services().size()).isZero();
            }
        }
    }
}
