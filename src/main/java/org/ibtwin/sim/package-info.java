/**
 * The live twin of a fabric: hardware in software. It knows no SM, tool or doctor (LayeringTest); real programs and
 * ibtwin's own reach it through MADs.
 *
 * <h2>The house</h2>
 * <ul>
 * <li>{@link org.ibtwin.sim.Twin}: the one lock, the clients' entry ({@code attach}, the MADs they send, the queue of
 *     MADs sent from inside a sink) and the public fault and inspection API: everything above the twin, the
 *     {@link org.ibtwin.sim.Console} included, goes through it.</li>
 * <li>{@code TwinState}: the fabric's runtime state in flat arrays indexed by node, port and switch (LIDs, port
 *     states, widths and speeds, PortInfo images, P_Keys, LFTs and MFTs, counters, who is attached where), built from
 *     the model and written back to it on {@code syncModel}, and the helpers the agents share (name lookups, LID
 *     ranges, counter arithmetic, drops, handing a MAD to a client). It takes no lock: its callers hold the
 *     twin's.</li>
 * <li>The agents, on the state and each other, never on {@code Twin} (TwinHouseTest): {@code Forwarding} moves a
 *     MAD by directed route or LFT to where it lands; {@code Sma} and {@code Pma} answer subnet-management and
 *     performance MADs; {@code Traps} sends traps 128 and 144 and repeats them until repressed; {@code Links}
 *     trains links and carries out the link and cable faults.</li>
 * <li>The ways in: {@link org.ibtwin.sim.TwinTransport} (a {@code MadTransport} for in-process tools and SM),
 *     {@link org.ibtwin.sim.IbsimServer} (ibsim's client protocol over UDP or its local mode, for real OpenSM and
 *     infiniband-diags under {@code libumad2sim.so}), {@link org.ibtwin.sim.Console} (ibsim's console commands and
 *     ibtwin's faults; a client of Twin's public API only, with its views {@link org.ibtwin.sim.NodeDump} and
 *     {@link org.ibtwin.sim.RouteTrace}) and {@link org.ibtwin.sim.TrapTimer}.</li>
 * </ul>
 */
package org.ibtwin.sim;
