package org.ibtwin.lab;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.ibtwin.model.Fabric;
import org.ibtwin.sim.TwinTransport;
import org.ibtwin.transport.LocalPort;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.MadTransport;
import org.ibtwin.transport.ReceivedMad;

/**
 * The in-process tools' transport: a tool's port on a {@link Lab} of its own (the twin of a fabric brought up by
 * ibtwin's SM, which stays attached, answering SMInfo and the SA); closing the transport closes the lab.
 */
public final class LabTransport implements MadTransport {
    private final Lab lab;
    private final TwinTransport tool;

    private LabTransport(Lab lab, TwinTransport tool) {
        this.lab = lab;
        this.tool = tool;
    }

    /**
     * Brings up the twin of {@code fabric} ({@code what} names it in a failure) and attaches at {@code node} (null:
     * the first CA's port 1; a switch: its port 0).
     *
     * @throws IllegalArgumentException for an unknown node (found before the SM runs)
     * @throws org.ibtwin.transport.MadTransportException when the SM cannot bring the fabric up
     */
    public static LabTransport open(Fabric fabric, String what, String node) {
        Lab lab = Lab.of(fabric).tool(node).start();
        try {
            TwinTransport tool = lab.tool();
            var r = lab.bringUp();
            if (!r.subnetUp()) {
                throw new org.ibtwin.transport.MadTransportException("ibtwin's SM did not bring " + what + " up: "
                        + String.join("; ", r.problems()));
            }
            return new LabTransport(lab, tool);
        } catch (RuntimeException e) {
            lab.close();
            throw e;
        }
    }

    /** The lab behind the transport. */
    public Lab lab() {
        return lab;
    }

    @Override
    public LocalPort localPort() {
        return tool.localPort();
    }

    @Override
    public long nextTid() {
        return tool.nextTid();
    }

    @Override
    public CompletableFuture<byte[]> request(byte[] mad, MadAddress to, Duration timeout, int retries) {
        return tool.request(mad, to, timeout, retries);
    }

    @Override
    public CompletableFuture<byte[]> requestNonBlocking(byte[] mad, MadAddress to, Duration timeout, int retries) {
        return tool.requestNonBlocking(mad, to, timeout, retries);
    }

    @Override
    public void send(byte[] mad, MadAddress to) {
        tool.send(mad, to);
    }

    @Override
    public void onUnsolicited(Consumer<ReceivedMad> handler) {
        tool.onUnsolicited(handler);
    }

    @Override
    public void close() {
        lab.close();
    }
}
