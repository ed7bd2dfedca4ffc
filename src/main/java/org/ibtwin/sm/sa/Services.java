package org.ibtwin.sm.sa;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.SaAttributes;

/**
 * The ServiceRecords registered with the SA (IBA 15.2.5.14): one per ServiceID, ServiceGID and ServiceP_Key, each
 * with its lease in seconds (0xFFFFFFFF: for ever). A record whose lease ran out is gone; the records handed out
 * carry the lease left, as OpenSM's do. Thread-safe (the SA's thread registers, any thread may look).
 */
public final class Services {
    static final Layout SR = SaAttributes.SERVICE_RECORD;
    private static final Field ID = SR.field("ServRecID");
    private static final Field GID = SR.field("ServRecGid");
    private static final Field PKEY = SR.field("ServRecPkey");
    private static final Field LEASE = SR.field("ServRecLease");
    static final long INDEFINITE = 0xffffffffL;

    private record Entry(byte[] record, long expires) {
    }

    private final Map<String, Entry> entries = new LinkedHashMap<>();
    private volatile LongSupplier clock = System::nanoTime;

    /** The clock leases are measured by, in nanoseconds (a test's, or System.nanoTime). */
    public void clock(LongSupplier nanos) {
        this.clock = nanos;
    }

    private static String key(byte[] r) {
        return Long.toHexString(ID.get(r, 0)) + "/" + Arrays.toString(SR.getBytes(r, 0, GID)) + "/"
                + PKEY.get(r, 0);
    }

    /** Registers (or renews) {@code record}; returns it as stored. */
    synchronized byte[] register(byte[] record) {
        byte[] r = record.clone();
        long lease = LEASE.get(r, 0);
        long now = clock.getAsLong();
        long expires = lease == INDEFINITE ? Long.MAX_VALUE : now + lease * 1_000_000_000L;
        entries.put(key(r), new Entry(r, expires));
        return r.clone();
    }

    /** The records alive now, each with the lease it has left. */
    synchronized List<byte[]> records() {
        long now = clock.getAsLong();
        List<byte[]> out = new ArrayList<>();
        for (Iterator<Entry> it = entries.values().iterator(); it.hasNext(); ) {
            Entry e = it.next();
            if (e.expires != Long.MAX_VALUE && now - e.expires >= 0) {
                it.remove();
                continue;
            }
            byte[] r = e.record.clone();
            if (e.expires != Long.MAX_VALUE) {
                LEASE.set(r, 0, (e.expires - now) / 1_000_000_000L);
            }
            out.add(r);
        }
        return out;
    }

    /** Removes the live records matching {@code template} on {@code mask}; returns them. */
    synchronized List<byte[]> delete(byte[] template, long mask) {
        List<byte[]> gone = new ArrayList<>();
        for (byte[] r : records()) {
            if (ComponentMask.matches(AttributeIds.SERVICE_RECORD, r, template, mask, 0)) {
                entries.remove(key(r));
                gone.add(r);
            }
        }
        return gone;
    }

    /** How many records are registered (expired ones dropped first). */
    public int size() {
        return records().size();
    }
}
