package org.ibtwin.sim;

/**
 * Where {@link IbsimServer} attaches its clients: the twin, seen from the ibsim endpoint. With the twin this is
 * {@code name -> twin.attach(name, 0)}.
 *
 * <p>The contract, as ibsim resolves a client's {@code SIM_HOST}:
 * <ul>
 * <li>{@code nodeName} {@code null}: the default node (ibsim's is the first port its net file names);</li>
 * <li>otherwise the node whose topology id ({@code "S-0008f1…"}, {@code "Hca1"}) or, failing that, whose node
 *     description equals {@code nodeName};</li>
 * <li>the client sits at port 0 of a switch, or at the first port of a CA or router;</li>
 * <li>no such node: throw (any {@link RuntimeException}, e.g. {@link java.util.NoSuchElementException}) or return
 *     {@code null}; the server refuses the client, as ibsim does.</li>
 * </ul>
 * Each call makes a new {@link Attachment}, even at a node that already has some. Detaching an attachment that never
 * called {@link Attachment#setIsSm setIsSm(true)} must leave the port's IsSM bit alone (another client may be the
 * port's SM).
 */
@FunctionalInterface
public interface AttachPoint {
    Attachment attach(String nodeName);
}
