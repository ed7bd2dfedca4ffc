package org.ibtwin.sm;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.MgmtClasses;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.MadTransport;
import org.ibtwin.transport.ReceivedMad;
import org.ibtwin.transport.Smp;

/**
 * Takes the traps SMAs send the SM (SubnTrap(Notice) to the SM's QP0): represses each one (a SubnTrapRepress with
 * the trap's TID and Notice, back to where it came from, so the SMA stops repeating it) and, for trap 128 (a link
 * state change) and 144 (a port's capabilities changed), asks for a heavy sweep; a trap 128 is also kept (the
 * switch's LID, when it came) for the fast re-route that runs first. Other traps are repressed and counted.
 *
 * <p>Runs on the transport's delivery thread: it sends and sets a flag, never blocks.
 */
final class TrapHandler {
    static final int LINK_STATE_CHANGE = 128;
    static final int LOCAL_CHANGES = 144;
    private static final Field TRAP_NUMBER = SmpAttributes.NOTICE.field("NoticeTrapNumber");
    private static final Field IS_GENERIC = SmpAttributes.NOTICE.field("NoticeIsGeneric");

    private final MadTransport transport;
    private final Runnable sweep;
    private final AtomicLong traps = new AtomicLong();
    private final AtomicLong sweepTraps = new AtomicLong();
    /** Trap 128s not yet taken: the switch's LID and when the trap arrived (System.nanoTime). */
    private final java.util.concurrent.ConcurrentLinkedQueue<long[]> linkTraps =
            new java.util.concurrent.ConcurrentLinkedQueue<>();
    private static final Field TRAP_128_LID = SmpAttributes.NOTICE_TRAP_128.field("NoticeDataLID");

    TrapHandler(MadTransport transport, Runnable requestSweep) {
        this.transport = transport;
        this.sweep = requestSweep;
    }

    /** Whether {@code mad} is a trap this handler takes. */
    static boolean isTrap(byte[] mad) {
        int cls = MadHeaders.mgmtClass(mad);
        return (cls == MgmtClasses.SUBN_LID || cls == MgmtClasses.SUBN_DIRECTED)
                && MadHeaders.method(mad) == Methods.TRAP && MadHeaders.attributeId(mad) == AttributeIds.NOTICE;
    }

    void accept(ReceivedMad m) {
        byte[] mad = m.mad();
        traps.incrementAndGet();
        byte[] repress = Arrays.copyOf(mad, mad.length);
        repress[3] = (byte) Methods.TRAP_REPRESS;
        repress[4] = 0;
        repress[5] = 0;
        try {
            transport.send(repress, m.from().lid() == 0 ? MadAddress.directed() : MadAddress.smp(m.from().lid()));
        } catch (RuntimeException e) {
            // the SMA repeats it; the next one is repressed
        }
        boolean generic = IS_GENERIC.get(mad, Smp.DATA) != 0;
        long number = TRAP_NUMBER.get(mad, Smp.DATA);
        if (generic && (number == LINK_STATE_CHANGE || number == LOCAL_CHANGES)) {
            if (number == LINK_STATE_CHANGE && linkTraps.size() < 4096) {
                linkTraps.add(new long[] {TRAP_128_LID.get(mad, Smp.DATA), System.nanoTime()});
            }
            sweepTraps.incrementAndGet();
            sweep.run();
        }
    }

    /** The trap 128s since the last call, each {switch LID, arrival nanoTime}, oldest first. */
    java.util.List<long[]> takeLinkTraps() {
        java.util.List<long[]> out = new java.util.ArrayList<>();
        long[] x;
        while ((x = linkTraps.poll()) != null) {
            out.add(x);
        }
        return out;
    }

    long traps() {
        return traps.get();
    }

    long sweepTraps() {
        return sweepTraps.get();
    }
}
