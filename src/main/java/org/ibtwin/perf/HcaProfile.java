package org.ibtwin.perf;

import java.util.Map;
import org.ibtwin.model.DeviceCatalog;
import org.ibtwin.model.Node;

/**
 * What an HCA generation contributes to the model.
 *
 * @param name          "ConnectX-6"
 * @param perQpMpps     messages per second one QP sustains, millions: 2.5 on ConnectX-4..7 (P13: HDR ConnectX-6,
 *                      1 QP, 2..128 B: about 2.5 Mpps, flat)
 * @param maxMpps       the whole HCA's message rate, millions (vendor figures: ConnectX-4 150, ConnectX-5 200,
 *                      ConnectX-6 215, ConnectX-7 330)
 * @param maxOutReads   RDMA READ/ATOMIC requests outstanding per QP (max_qp_rd_atom): 16
 * @param latencyScale  multiplies the fixed latency terms for older generations: 1 for mlx5 (ConnectX-4 on)
 * @param verbsPrefix   the kernel driver's device name prefix: "mlx5", "mlx4", "mthca"
 */
public record HcaProfile(String name, double perQpMpps, double maxMpps, int maxOutReads, double latencyScale,
                         String verbsPrefix) {

    public static final HcaProfile CONNECTX4 = new HcaProfile("ConnectX-4", 2.5, 150, 16, 1.0, "mlx5");
    public static final HcaProfile CONNECTX5 = new HcaProfile("ConnectX-5", 2.5, 200, 16, 1.0, "mlx5");
    public static final HcaProfile CONNECTX6 = new HcaProfile("ConnectX-6", 2.5, 215, 16, 1.0, "mlx5");
    public static final HcaProfile CONNECTX7 = new HcaProfile("ConnectX-7", 2.5, 330, 16, 1.0, "mlx5");
    public static final HcaProfile CONNECTX3 = new HcaProfile("ConnectX-3", 1.5, 90, 16, 1.15, "mlx4");
    public static final HcaProfile CONNECTX2 = new HcaProfile("ConnectX-2", 1.0, 50, 16, 1.4, "mlx4");
    public static final HcaProfile CONNECTX_DDR = new HcaProfile("ConnectX", 0.8, 20, 16, 1.6, "mlx4");
    public static final HcaProfile INFINIHOST = new HcaProfile("InfiniHost", 0.3, 3, 4, 3.0, "mthca");
    /** The profile of each catalogued device that has one of its own (the others: ConnectX-6). */
    private static final Map<DeviceCatalog.Device, HcaProfile> BY_DEVICE = Map.of(
            DeviceCatalog.CONNECTX4, CONNECTX4, DeviceCatalog.CONNECTX5, CONNECTX5,
            DeviceCatalog.CONNECTX7, CONNECTX7, DeviceCatalog.CONNECTX3, CONNECTX3,
            DeviceCatalog.CONNECTX2, CONNECTX2, DeviceCatalog.CONNECTX_DDR, CONNECTX_DDR,
            DeviceCatalog.INFINIHOST, INFINIHOST);

    public HcaProfile {
        if (perQpMpps <= 0 || maxMpps < perQpMpps || maxOutReads < 1 || latencyScale <= 0) {
            throw new IllegalArgumentException("bad HCA profile " + name);
        }
    }

    /** The profile of a CA node's device; ConnectX-6 when the device is not in the catalog. */
    public static HcaProfile of(Node ca) {
        DeviceCatalog.Device d = DeviceCatalog.find(ca.vendorId(), ca.deviceId());
        if (d == null) {
            return CONNECTX6;
        }
        return BY_DEVICE.getOrDefault(d, CONNECTX6);
    }
}
