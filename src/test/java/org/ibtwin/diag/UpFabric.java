package org.ibtwin.diag;

import org.ibtwin.model.Fabric;
import org.ibtwin.sim.Attachment;
import org.ibtwin.sim.Twin;
import org.ibtwin.sim.TwinTransport;
import org.ibtwin.sm.SmConfig;
import org.ibtwin.sm.SmLog;
import org.ibtwin.sm.SubnetManager;
import org.ibtwin.transport.MadTransport;

/** Tests only: a fabric's twin in process, brought up by ibtwin's SM; diag tools attach to it anywhere. */
public final class UpFabric {
    public final Fabric fabric;
    public final Twin twin;

    private UpFabric(Fabric fabric) {
        this.fabric = fabric;
        this.twin = Twin.of(fabric);
    }

    /** The twin of {@code fabric}, swept once by our SM attached at its first CA. */
    public static UpFabric of(Fabric fabric) {
        UpFabric u = new UpFabric(fabric);
        Attachment a = u.twin.attach(fabric.cas().get(0).name(), 0);
        a.setIsSm(true);
        try (TwinTransport t = new TwinTransport(a)) {
            SubnetManager sm = new SubnetManager(t, SmConfig.defaults(), SmLog.quiet());
            if (!sm.sweep().subnetUp()) {
                throw new IllegalStateException("the SM did not bring the subnet up");
            }
        }
        return u;
    }

    /** A transport attached at {@code node}'s port (null: the twin's first node). */
    public MadTransport attach(String node) {
        return new TwinTransport(twin.attach(node, 0));
    }
}
