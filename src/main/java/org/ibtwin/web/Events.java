package org.ibtwin.web;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * What the twin, the SM and the console did, in order, with time: the last {@value #KEEP} kept for
 * {@code /api/events}, and each pushed at once to every subscriber (the server-sent event streams).
 */
public final class Events {
    static final int KEEP = 2000;

    /**
     * One event.
     *
     * @param kind   link, sweep, sm, console, traffic, source
     * @param target the map element it concerns (a link or node id), or empty
     * @param data   the kind's own fields (a link's new health)
     */
    public record Event(long seq, String time, String kind, String text, String target, Map<String, Object> data) {
    }

    private final ArrayDeque<Event> kept = new ArrayDeque<>();
    private final List<LinkedBlockingQueue<Event>> subscribers = new CopyOnWriteArrayList<>();
    private long seq;

    /** Adds an event and pushes it. */
    public void add(String kind, String text, String target, Map<String, Object> data) {
        Event e;
        synchronized (this) {
            e = new Event(++seq, Instant.now().toString(), kind, text, target == null ? "" : target,
                    data == null ? Map.of() : Map.copyOf(data));
            kept.addLast(e);
            if (kept.size() > KEEP) {
                kept.removeFirst();
            }
        }
        for (LinkedBlockingQueue<Event> q : subscribers) {
            q.offer(e);
        }
    }

    public void add(String kind, String text) {
        add(kind, text, "", Map.of());
    }

    /** The kept events after {@code since} (0: all kept), oldest first. */
    public synchronized List<Event> since(long since) {
        List<Event> out = new ArrayList<>();
        for (Event e : kept) {
            if (e.seq() > since) {
                out.add(e);
            }
        }
        return out;
    }

    /** A queue that receives every event from now on, until {@link #unsubscribe}. */
    LinkedBlockingQueue<Event> subscribe() {
        LinkedBlockingQueue<Event> q = new LinkedBlockingQueue<>(10_000);
        subscribers.add(q);
        return q;
    }

    void unsubscribe(LinkedBlockingQueue<Event> q) {
        subscribers.remove(q);
    }
}
