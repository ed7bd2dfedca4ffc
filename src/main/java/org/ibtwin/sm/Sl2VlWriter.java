package org.ibtwin.sm;

import java.util.ArrayList;
import java.util.List;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.transport.Smp;
import org.ibtwin.transport.SmpPipe;

/**
 * The SL2VL writer: when the routing engine spreads routes over several virtual lanes (its paths' SL is the lane),
 * programs the SLtoVLMappingTable (SubnSet SLtoVLMappingTable) of every port so that SL n travels on VL n for the
 * lanes in use and every other SL on VL 0: on each CA at the port the SM reaches it by, and on each switch for every
 * pair of an input port (port 0 included) and a different, linked output port (modifier input &lt;&lt; 8 | output).
 * A minimal version of QoS's SL2VL programming; with one lane nothing is written.
 */
final class Sl2VlWriter {
    /** What one pass wrote. */
    record Result(long tables, List<String> failures) {
    }

    /** The 8-byte table: SL 2i in the high nibble of byte i, SL 2i+1 in the low one. */
    static byte[] table(int lanes) {
        byte[] t = new byte[Smp.DATA_SIZE];
        for (int sl = 0; sl < 16; sl++) {
            int vl = sl < lanes ? sl : 0;
            t[sl / 2] |= (byte) (sl % 2 == 0 ? vl << 4 : vl);
        }
        return t;
    }

    Result write(Topology t, int lanes, SmpPipe pipe) {
        List<String> failures = new ArrayList<>();
        if (lanes <= 1) {
            return new Result(0, failures);
        }
        byte[] table = table(lanes);
        long[] sent = {0};
        for (int n = 0; n < t.nodeCount(); n++) {
            byte[] path = t.path(n);
            if (path == null) {
                continue;
            }
            String name = t.shortName(n);
            if (!t.isSwitch(n)) {
                set(pipe, path, 0, table, name, failures, sent);
                continue;
            }
            int ports = t.numPorts(n);
            for (int out = 1; out <= ports; out++) {
                if (t.remote(t.port(n, out)) < 0) {
                    continue;
                }
                for (int in = 0; in <= ports; in++) {
                    if (in != out && (in == 0 || t.remote(t.port(n, in)) >= 0)) {
                        set(pipe, path, (in << 8) | out, table, name, failures, sent);
                    }
                }
            }
        }
        pipe.drain();
        return new Result(sent[0], failures);
    }

    private static void set(SmpPipe pipe, byte[] path, long mod, byte[] table, String name, List<String> failures,
                            long[] sent) {
        sent[0]++;
        pipe.set(path, AttributeIds.SL_TO_VL_TABLE, mod, table.clone(), r -> {
            if (!r.ok() && failures.size() < 10) {
                failures.add("SLtoVLMappingTable (in " + (mod >> 8) + ", out " + (mod & 0xff) + ") on " + name + ": "
                        + r.why());
            }
        });
    }
}
