package org.ibtwin.cli;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.model.Fabric;
import org.ibtwin.sim.Attachment;
import org.ibtwin.sim.Twin;
import org.ibtwin.sim.TwinTransport;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SmLog;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.sm.SweepReport;
import org.ibtwin.transport.LocalPort;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.MadTransport;
import org.ibtwin.transport.MadTransportException;
import org.ibtwin.transport.ReceivedMad;

/**
 * The diag tools' in-process target: the twin of a fabric file (or the built-in default fabric), brought up by
 * ibtwin's SM attached at the twin's default port, and a transport for the tool at the node it names. The SM stays
 * attached (answering SMInfo and the SA) until the tool's transport is closed, which closes both.
 *
 * <p>This is CLI wiring, as {@code ibtwin up} is: the tools themselves see only a {@link MadTransport}.
 */
final class InProcessTwin implements MadTransport {
    private final TwinTransport tool;
    private final TwinTransport smTransport;
    private final SubnetManager sm;

    private InProcessTwin(TwinTransport tool, TwinTransport smTransport, SubnetManager sm) {
        this.tool = tool;
        this.smTransport = smTransport;
        this.sm = sm;
    }

    /**
     * Loads {@code fabric} (null: the built-in default), brings it up and attaches at {@code node} (null: the first
     * CA's port 1; a switch: its port 0).
     *
     * @throws org.ibtwin.format.FormatException for a bad fabric file
     * @throws IllegalArgumentException for an unknown node
     * @throws MadTransportException when the SM cannot bring the fabric up
     */
    static InProcessTwin open(String fabric, String node) {
        Fabric f = FabricFiles.load(fabric);
        Twin twin = Twin.of(f);
        Attachment toolPort = twin.attach(node, 0);   // an unknown node fails here, before the SM runs
        Attachment smPort = twin.attach(null, 0);
        smPort.setIsSm(true);
        TwinTransport smTransport = new TwinTransport(smPort, "ibtwin0");
        SubnetManager sm = new SubnetManager(smTransport, SmConfig.defaults(), SmLog.quiet());
        SweepReport r = sm.sweep();
        if (!r.subnetUp()) {
            sm.detach();
            smTransport.close();
            toolPort.detach();
            throw new MadTransportException("ibtwin's SM did not bring " + (fabric == null ? "the default fabric"
                    : fabric) + " up: " + String.join("; ", r.problems()));
        }
        return new InProcessTwin(new TwinTransport(toolPort, deviceName(f, toolPort.nodeName())), smTransport, sm);
    }

    /** The verbs device name a host would show for the node (its description's second word, else "mlx5_0"). */
    private static String deviceName(Fabric f, String nodeName) {
        for (org.ibtwin.model.Node n : f.nodes()) {
            if (n.name().equals(nodeName)) {
                return Hosts.device(n, "mlx5");
            }
        }
        return "mlx5_0";
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
    public void send(byte[] mad, MadAddress to) {
        tool.send(mad, to);
    }

    @Override
    public void onUnsolicited(Consumer<ReceivedMad> handler) {
        tool.onUnsolicited(handler);
    }

    @Override
    public void close() {
        tool.close();
        sm.detach();
        smTransport.close();
    }
}
