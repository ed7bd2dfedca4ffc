package org.ibtwin.doctor;

import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.ibtwin.model.HostFacts;
import org.ibtwin.model.IpoibMode;
import org.ibtwin.model.LinkLayer;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Mtu;
import org.ibtwin.model.Node;
import org.ibtwin.model.PcieGen;
import org.ibtwin.model.PhysState;
import org.ibtwin.model.PortState;

/**
 * What doctor knows about one host around an HCA: whatever the fabric description or the host's saved files said,
 * each fact with where it came from ("node017/lspci.txt:14", "default.yaml"). Facts nobody gave are null: a check
 * that needs them passes the host by.
 */
public final class HostInfo {
    /** The facts a host can have. */
    public enum Key {
        PCIE_GEN, PCIE_LANES, PCIE_CAP_GEN, PCIE_CAP_LANES, MAX_PAYLOAD, HCA_NUMA, NUMA_NODES, APP_NUMA,
        IPOIB_MODE, IPOIB_MTU, DRIVER_LOADED, GPU, GPUDIRECT, FIRMWARE, DEVICE, NODE_GUID, NO_DEVICE
    }

    /** A value and where it was read. */
    public record Fact(Object value, String source) {
    }

    private final String host;
    private Node node;
    private final Map<Key, Fact> facts = new EnumMap<>(Key.class);
    private final Map<Integer, PortFacts> ports = new TreeMap<>();

    public HostInfo(String host) {
        this.host = host;
    }

    /** The host name: the first word of the node description, or what the files are named by. */
    public String host() {
        return host;
    }

    /** The fabric node of this host's HCA, when the topology has it. */
    public Node node() {
        return node;
    }

    public void setNode(Node n) {
        this.node = n;
    }

    public void set(Key k, Object value, String source) {
        if (value != null) {
            facts.put(k, new Fact(value, source));
        }
    }

    public Fact fact(Key k) {
        return facts.get(k);
    }

    public boolean has(Key k) {
        return facts.containsKey(k);
    }

    /** Where a fact came from, or "" when unknown. */
    public String source(Key k) {
        Fact f = facts.get(k);
        return f == null || f.source() == null ? "" : f.source();
    }

    @SuppressWarnings("unchecked")
    private <T> T get(Key k) {
        Fact f = facts.get(k);
        return f == null ? null : (T) f.value();
    }

    public PcieGen pcieGen() {
        return get(Key.PCIE_GEN);
    }

    public Integer pcieLanes() {
        return get(Key.PCIE_LANES);
    }

    public PcieGen pcieCapGen() {
        return get(Key.PCIE_CAP_GEN);
    }

    public Integer pcieCapLanes() {
        return get(Key.PCIE_CAP_LANES);
    }

    public Integer maxPayload() {
        return get(Key.MAX_PAYLOAD);
    }

    public Integer hcaNuma() {
        return get(Key.HCA_NUMA);
    }

    public Integer numaNodes() {
        return get(Key.NUMA_NODES);
    }

    /** The NUMA nodes the application is bound to (numactl --show "nodebind:"). */
    public Set<Integer> appNuma() {
        return get(Key.APP_NUMA);
    }

    public IpoibMode ipoibMode() {
        return get(Key.IPOIB_MODE);
    }

    public Integer ipoibMtu() {
        return get(Key.IPOIB_MTU);
    }

    public Boolean driverLoaded() {
        return get(Key.DRIVER_LOADED);
    }

    public Boolean gpu() {
        return get(Key.GPU);
    }

    public Boolean gpuDirect() {
        return get(Key.GPUDIRECT);
    }

    public String firmware() {
        return get(Key.FIRMWARE);
    }

    /** The HCA kind firmware is compared within: "ConnectX-6", "MT4123". */
    public String device() {
        return get(Key.DEVICE);
    }

    public Long nodeGuid() {
        return get(Key.NODE_GUID);
    }

    /** The host's tools saw no HCA at all (ibv_devinfo "No IB devices found"). */
    public boolean noDevice() {
        return Boolean.TRUE.equals(get(Key.NO_DEVICE));
    }

    /** Port facts the host's own tools gave (ibstat, ibstatus, ibv_devinfo), by port number. */
    public Map<Integer, PortFacts> ports() {
        return ports;
    }

    public PortFacts port(int n) {
        return ports.computeIfAbsent(n, PortFacts::new);
    }

    /** A host-side view of one HCA port; every field may be null. */
    public static final class PortFacts {
        public final int number;
        public PortState state;
        public PhysState physState;
        /** The rate ibstat prints (Gb/s, nominal: 200 for 4xHDR). */
        public Double rateGbps;
        public LinkWidth width;
        public LinkSpeed speed;
        public Integer lid;
        public Integer smLid;
        public LinkLayer linkLayer;
        public Mtu activeMtu;
        public Mtu maxMtu;
        public Long portGuid;
        /** Where these facts were read. */
        public String source;

        PortFacts(int number) {
            this.number = number;
        }
    }

    /** The facts a fabric description gives a CA, all known. */
    public static HostInfo of(Node n, String host, HostFacts h, String source) {
        HostInfo hi = new HostInfo(host);
        hi.setNode(n);
        hi.set(Key.PCIE_GEN, h.pcieGen(), source);
        hi.set(Key.PCIE_LANES, h.pcieLanes(), source);
        hi.set(Key.MAX_PAYLOAD, h.maxPayload(), source);
        hi.set(Key.HCA_NUMA, h.hcaNumaNode(), source);
        hi.set(Key.NUMA_NODES, h.numaNodes(), source);
        hi.set(Key.IPOIB_MODE, h.ipoibMode(), source);
        hi.set(Key.IPOIB_MTU, h.ipoibMtu(), source);
        hi.set(Key.DRIVER_LOADED, h.driverLoaded(), source);
        hi.set(Key.GPU, h.gpu(), source);
        hi.set(Key.GPUDIRECT, h.gpuDirect(), source);
        return hi;
    }
}
