package org.ibtwin.diag;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** GIDs as the tools print them: C's {@code inet_ntop(AF_INET6, ...)} of the 16 bytes (prefix, then GUID). */
public final class Gids {
    private Gids() {
    }

    /** {@link #ntop(long, long)} of a GID as its 16 bytes (network order). */
    public static String ntop(byte[] gid) {
        long prefix = 0;
        long guid = 0;
        for (int i = 0; i < 8; i++) {
            prefix = (prefix << 8) | (gid[i] & 0xff);
            guid = (guid << 8) | (gid[8 + i] & 0xff);
        }
        return ntop(prefix, guid);
    }

    /** A GID in IPv6 text form ("fe80::2:c903:0:3"), as inet_pton reads it: its 16 bytes, or null. */
    public static byte[] parse(String s) {
        if (s == null || !s.contains(":") || !s.matches("[0-9a-fA-F:.]+")) {
            return null;
        }
        try {
            // a numeric literal only (the pattern above): no name is looked up
            byte[] b = InetAddress.getByName(s).getAddress();
            return b.length == 16 ? b : null;
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /**
     * inet_ntop's text: groups in lower-case hex without leading zeros, the longest run of two or more zero groups
     * (the first of equals) as "::", and the last 32 bits as a dotted quad when the first 96 are zero (or are
     * {@code ::ffff:}).
     */
    public static String ntop(long prefix, long guid) {
        int[] w = new int[8];
        for (int i = 0; i < 4; i++) {
            w[i] = (int) (prefix >>> (48 - 16 * i)) & 0xffff;
            w[4 + i] = (int) (guid >>> (48 - 16 * i)) & 0xffff;
        }
        int bestBase = -1;
        int bestLen = 0;
        int curBase = -1;
        int curLen = 0;
        for (int i = 0; i < 8; i++) {
            if (w[i] == 0) {
                if (curBase < 0) {
                    curBase = i;
                    curLen = 1;
                } else {
                    curLen++;
                }
                if (curLen > bestLen) {
                    bestBase = curBase;
                    bestLen = curLen;
                }
            } else {
                curBase = -1;
                curLen = 0;
            }
        }
        if (bestLen < 2) {
            bestBase = -1;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (bestBase >= 0 && i >= bestBase && i < bestBase + bestLen) {
                if (i == bestBase) {
                    sb.append(':');
                }
                continue;
            }
            if (i != 0) {
                sb.append(':');
            }
            if (i == 6 && bestBase == 0 && (bestLen == 6 || (bestLen == 5 && w[5] == 0xffff))) {
                sb.append(w[6] >>> 8).append('.').append(w[6] & 0xff).append('.').append(w[7] >>> 8).append('.')
                        .append(w[7] & 0xff);
                return sb.toString();
            }
            sb.append(Integer.toHexString(w[i]));
        }
        if (bestBase >= 0 && bestBase + bestLen == 8) {
            sb.append(':');
        }
        return sb.toString();
    }
}
