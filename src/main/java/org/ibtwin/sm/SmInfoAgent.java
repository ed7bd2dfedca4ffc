package org.ibtwin.sm;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.MgmtClasses;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.transport.MadTransport;
import org.ibtwin.transport.ReceivedMad;
import org.ibtwin.transport.Smp;

/**
 * Answers SubnGet(SMInfo) at the SM's port, LID routed or directed route, with the SM's GUID (its port GUID), SM_Key
 * 0, ActCount, priority and state (DISCOVERING until the first sweep is done, then MASTER): what {@code sminfo} and
 * another SM polling this one see. A SubnSet(SMInfo) (a handover) is answered the same way and otherwise ignored
 * for now. Everything else unsolicited (traps) is counted and dropped.
 *
 * <p>Runs on the transport's delivery thread (the twin's, in process): it never blocks.
 */
final class SmInfoAgent implements Consumer<ReceivedMad> {
    static final int NOT_ACTIVE = 0;
    static final int DISCOVERING = 1;
    static final int STANDBY = 2;
    static final int MASTER = 3;

    private static final Layout SM = SmpAttributes.SM_INFO;
    private static final Field GUID = SM.field("SmInfoGuid");
    private static final Field KEY = SM.field("SmInfoKey");
    private static final Field ACT = SM.field("SmActivity");
    private static final Field PRIORITY = SM.field("SmPriority");
    private static final Field STATE = SM.field("SmState");

    private final MadTransport transport;
    private final long guid;
    private final int priority;
    private volatile int state = DISCOVERING;
    private final AtomicLong actCount = new AtomicLong();
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong ignored = new AtomicLong();

    SmInfoAgent(MadTransport transport, long guid, int priority) {
        this.transport = transport;
        this.guid = guid;
        this.priority = priority;
    }

    void state(int s) {
        this.state = s;
    }

    int state() {
        return state;
    }

    /** The SM did something (a sweep): ActCount goes up, as a standby polling it expects. */
    void activity() {
        actCount.incrementAndGet();
    }

    long answered() {
        return answered.get();
    }

    long ignored() {
        return ignored.get();
    }

    @Override
    public void accept(ReceivedMad m) {
        byte[] mad = m.mad();
        if (mad.length != MadHeaders.MAD_SIZE) {
            ignored.incrementAndGet();
            return;
        }
        int cls = MadHeaders.mgmtClass(mad);
        int method = MadHeaders.method(mad);
        boolean smp = cls == MgmtClasses.SUBN_LID || cls == MgmtClasses.SUBN_DIRECTED;
        if (!smp || MadHeaders.attributeId(mad) != AttributeIds.SM_INFO
                || (method != Methods.GET && method != Methods.SET)) {
            ignored.incrementAndGet();
            return;
        }
        byte[] resp = Arrays.copyOf(mad, mad.length);
        resp[3] = (byte) Methods.GET_RESP;
        resp[4] = (byte) (cls == MgmtClasses.SUBN_DIRECTED ? 0x80 : 0);   // D bit on the way back; status 0
        resp[5] = 0;
        Arrays.fill(resp, Smp.DATA, Smp.DATA + Smp.DATA_SIZE, (byte) 0);
        GUID.set(resp, Smp.DATA, guid);
        KEY.set(resp, Smp.DATA, 0);
        ACT.set(resp, Smp.DATA, actCount.get() & 0xffffffffL);
        PRIORITY.set(resp, Smp.DATA, priority);
        STATE.set(resp, Smp.DATA, state);
        try {
            transport.send(resp, m.from());
            answered.incrementAndGet();
        } catch (RuntimeException e) {
            ignored.incrementAndGet();
        }
    }
}
