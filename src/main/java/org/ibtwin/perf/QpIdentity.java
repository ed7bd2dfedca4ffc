package org.ibtwin.perf;

import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.model.NodeType;
import org.ibtwin.model.Port;

/**
 * The identities perftest prints for a QP (LID, QPN, PSN, RKey, VAddr, GID), synthesized deterministically: the
 * same fabric, hosts and test always print the same addresses.
 *
 * <p>LIDs are the ports' own when a subnet manager gave them; otherwise they are handed out the way a fresh SM
 * sweep would: switches first (port 0), then every CA port, in fabric order, from 1. QPNs fall where a freshly
 * loaded mlx5 driver hands them out (0x0100 upward), PSNs are 24 random-looking bits, RKeys look like mlx5 keys and
 * VAddrs are page-aligned user-space addresses; all come from a hash of the port GUID, the test and the QP number.
 */
public final class QpIdentity {
    private QpIdentity() {
    }

    /** The port's LID, or the one a subnet manager sweeping this fabric in order would give it. */
    public static int lid(Fabric f, Port p) {
        if (p.lid() != 0) {
            return p.lid();
        }
        int lid = 1;
        for (Node n : f.nodes()) {
            if (n.isSwitch()) {
                if (n.port(0) == p) {
                    return lid;
                }
                lid++;
            }
        }
        for (Node n : f.nodes()) {
            if (n.type() == NodeType.CA) {
                for (int i = 1; i <= n.numPorts(); i++) {
                    if (n.port(i) == p) {
                        return lid;
                    }
                    lid++;
                }
            }
        }
        return 0;
    }

    /** The address one QP of a test prints. {@code salt} distinguishes tests (the operation and test kind). */
    public static PerftestReport.Address address(Fabric f, Port p, int qp, long salt, int outReads) {
        long seed = p.guid() * 0x9E3779B97F4A7C15L ^ salt * 0xC2B2AE3D27D4EB4FL;
        long h1 = mix(seed);
        long h2 = mix(h1 ^ qp);
        long h3 = mix(h2 + 0x632BE59BD9B4E019L);
        long h4 = mix(h3 + 0x165667B19E3779F9L);
        int qpn = 0x0100 + (int) ((h1 >>> 33) % 0x0e00) + qp;
        int psn = (int) (h2 & 0xffffff);
        if (psn == 0) {
            psn = 1;
        }
        int rkey = 0x1000 | (int) (h3 & 0x1fff00) | (qp & 0xff);
        long vaddr = 0x7f0000000000L | (h4 & 0xfffffffL) << 12;
        byte[] gid = new byte[16];
        gid[0] = (byte) 0xfe;
        gid[1] = (byte) 0x80;
        for (int i = 0; i < 8; i++) {
            gid[8 + i] = (byte) (p.guid() >>> (56 - 8 * i));
        }
        return new PerftestReport.Address(lid(f, p), qpn, psn, rkey, vaddr, outReads, gid);
    }

    /** SplitMix64's finaliser. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
