package org.ibtwin.sim;

import org.ibtwin.mad.MadHeaders;
import org.ibtwin.transport.MadAddress;

/** A client at a twin port. State changes go through the twin's lock. */
final class TwinAttachment implements Attachment {
    private static final MadSink NOWHERE = (mad, from) -> { };
    private static final int RECENT = 32;

    final Twin twin;
    /** The global port index. */
    final int gp;
    volatile MadSink sink = NOWHERE;
    /** Written under the twin's lock. */
    boolean isSm;
    volatile boolean detached;
    /** TIDs of the last requests sent, to pick the right client when several share a port. */
    private final long[] recentTids = new long[RECENT];
    private int nextTid;

    TwinAttachment(Twin twin, int gp) {
        this.twin = twin;
        this.gp = gp;
    }

    @Override
    public String nodeName() {
        return twin.st.nodes[twin.st.portNode[gp]].name();
    }

    @Override
    public int portNumber() {
        return twin.st.portNumber(gp);
    }

    @Override
    public long nodeGuid() {
        return twin.st.nodes[twin.st.portNode[gp]].guid();
    }

    @Override
    public long portGuid() {
        return twin.st.portGuid[gp];
    }

    @Override
    public byte[] nodeInfo() {
        return twin.nodeInfoOf(gp);
    }

    @Override
    public byte[] portInfo() {
        return twin.portInfoOf(gp);
    }

    @Override
    public int[] pkeys() {
        return twin.pkeysOf(gp);
    }

    @Override
    public void setIsSm(boolean sm) {
        twin.setIsSm(this, sm);
    }

    @Override
    public void send(byte[] mad, MadAddress to) {
        twin.submit(this, mad, to);
    }

    @Override
    public void onReceive(MadSink s) {
        this.sink = s == null ? NOWHERE : s;
    }

    @Override
    public void detach() {
        twin.detach(this);
    }

    /** Called under the twin's lock with the MAD being sent. */
    void noteSent(byte[] mad) {
        if ((mad[3] & 0x80) == 0) {
            recentTids[nextTid] = MadHeaders.tid(mad);
            nextTid = (nextTid + 1) % RECENT;
        }
    }

    boolean sentRecently(long tid) {
        for (long t : recentTids) {
            if (t == tid) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return "attachment at " + nodeName() + "[" + portNumber() + "]" + (isSm ? " (SM)" : "");
    }
}
