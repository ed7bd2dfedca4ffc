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
 * Answers SubnGet(SMInfo) at the SM's port, LID routed or directed route, with the SM's GUID (its port GUID), its
 * SM_Key to every requester (as real OpenSM answers, whatever SM_Key the Get's SMInfo and M_Key the SMP carry;
 * SaSubscriptionInteropTest holds it), ActCount, priority and state (DISCOVERING until the first sweep is done, then
 * MASTER): what {@code sminfo} and
 * another SM polling this one see. A SubnSet(SMInfo) (HANDOVER, ACKNOWLEDGE, DISABLE, STANDBY, DISCOVER in its
 * attribute modifier) goes to the {@link SetHandler} (the {@link SmStateMachine}), which says whether it is legal:
 * the answer carries this SM's SMInfo as it was when the Set arrived, status 0 or "invalid field". Everything else
 * unsolicited (traps) is counted and dropped.
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

    /** Decides a SubnSet(SMInfo): returns the MAD status of the answer (0: legal, acted on). Never blocks. */
    @FunctionalInterface
    interface SetHandler {
        int onSet(int modifier, byte[] senderSmInfo);
    }

    private final MadTransport transport;
    private volatile SetHandler setHandler;
    private final long guid;
    private final int priority;
    private volatile int state = DISCOVERING;
    private volatile long smKey;
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

    long guid() {
        return guid;
    }

    int priority() {
        return priority;
    }

    /** The SM_Key this SM answers with (0 until the state machine sets it). */
    void smKey(long key) {
        this.smKey = key;
    }

    long smKey() {
        return smKey;
    }

    void onSet(SetHandler h) {
        this.setHandler = h;
    }

    /** This SM's SMInfo (64 bytes of SMP data) in state {@code s}. */
    byte[] smInfo(int s) {
        byte[] d = new byte[Smp.DATA_SIZE];
        GUID.set(d, 0, guid);
        KEY.set(d, 0, smKey);
        ACT.set(d, 0, actCount.get() & 0xffffffffL);
        PRIORITY.set(d, 0, priority);
        STATE.set(d, 0, s);
        return d;
    }

    /** The fields of an SMInfo (64 bytes of SMP data). */
    record Info(long guid, long smKey, int priority, int state, long actCount) {
        static Info of(byte[] data) {
            return new Info(GUID.get(data, 0), KEY.get(data, 0), (int) PRIORITY.get(data, 0),
                    (int) STATE.get(data, 0), ACT.get(data, 0));
        }
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

    /** SMInfo as this SM answers it now (21 bytes). */
    byte[] smInfo() {
        byte[] d = new byte[SM.size()];
        GUID.set(d, 0, guid);
        KEY.set(d, 0, 0);
        ACT.set(d, 0, actCount.get() & 0xffffffffL);
        PRIORITY.set(d, 0, priority);
        STATE.set(d, 0, state);
        return d;
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
        byte[] ours = smInfo(state);
        int status = 0;
        SetHandler h = setHandler;
        if (method == Methods.SET && h != null) {
            status = h.onSet((int) MadHeaders.attributeModifier(mad),
                    Arrays.copyOfRange(mad, Smp.DATA, Smp.DATA + Smp.DATA_SIZE));
        }
        byte[] resp = Arrays.copyOf(mad, mad.length);
        resp[3] = (byte) Methods.GET_RESP;
        // the D bit on the way back (directed route), then the status
        resp[4] = (byte) ((cls == MgmtClasses.SUBN_DIRECTED ? 0x80 : 0) | ((status >> 8) & 0x7f));
        resp[5] = (byte) status;
        System.arraycopy(ours, 0, resp, Smp.DATA, Smp.DATA_SIZE);
        try {
            transport.send(resp, m.from());
            answered.incrementAndGet();
        } catch (RuntimeException e) {
            ignored.incrementAndGet();
        }
    }
}
