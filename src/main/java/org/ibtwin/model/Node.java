package org.ibtwin.model;

import java.nio.charset.StandardCharsets;

/**
 * A CA, switch or router. Ports are numbered 1..numPorts; a switch also has its management port 0, which
 * carries the switch's LID and shares the switch's port GUID.
 */
public final class Node {
    /** NodeDescription is 64 bytes on the wire. */
    public static final int MAX_DESCRIPTION_BYTES = 64;

    private final NodeType type;
    private final long guid;
    private long systemImageGuid;
    private String name;
    private String description;
    private int vendorId;
    private int deviceId;
    private int revision;
    private String firmware = "";
    private boolean enhancedPort0;
    private final Port[] ports;
    private HostFacts hostFacts;
    private byte[] linearForwarding;

    /**
     * @param type     node type
     * @param guid     node GUID
     * @param name     the topology id ("S-0002c9...", "Switch1")
     * @param numPorts physical ports
     */
    public Node(NodeType type, long guid, String name, int numPorts) {
        if (numPorts < 1 || numPorts > 254) {
            throw new IllegalArgumentException("a node has 1..254 ports, not " + numPorts);
        }
        this.type = type;
        this.guid = guid;
        this.systemImageGuid = guid;
        this.name = name;
        this.description = name;
        this.ports = new Port[numPorts + 1];
        if (type == NodeType.SWITCH) {
            ports[0] = new Port(this, 0, guid);
        }
        for (int i = 1; i <= numPorts; i++) {
            ports[i] = new Port(this, i, type == NodeType.SWITCH ? guid : guid + i);
        }
    }

    public NodeType type() {
        return type;
    }

    public boolean isSwitch() {
        return type == NodeType.SWITCH;
    }

    public long guid() {
        return guid;
    }

    public long systemImageGuid() {
        return systemImageGuid;
    }

    public void setSystemImageGuid(long g) {
        this.systemImageGuid = g;
    }

    public String name() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String description() {
        return description;
    }

    public void setDescription(String description) {
        if (description.getBytes(StandardCharsets.UTF_8).length > MAX_DESCRIPTION_BYTES) {
            throw new IllegalArgumentException("node description longer than 64 bytes: \"" + description + "\"");
        }
        this.description = description;
    }

    public int vendorId() {
        return vendorId;
    }

    public int deviceId() {
        return deviceId;
    }

    public int revision() {
        return revision;
    }

    public void setIds(int vendorId, int deviceId, int revision) {
        if (vendorId < 0 || vendorId > 0xffffff) {
            throw new IllegalArgumentException("vendor id is 24 bits: " + vendorId);
        }
        if (deviceId < 0 || deviceId > 0xffff) {
            throw new IllegalArgumentException("device id is 16 bits: " + deviceId);
        }
        this.vendorId = vendorId;
        this.deviceId = deviceId;
        this.revision = revision;
    }

    public String firmware() {
        return firmware;
    }

    public void setFirmware(String firmware) {
        this.firmware = firmware == null ? "" : firmware;
    }

    public boolean enhancedPort0() {
        return enhancedPort0;
    }

    public void setEnhancedPort0(boolean enhanced) {
        this.enhancedPort0 = enhanced;
    }

    public int numPorts() {
        return ports.length - 1;
    }

    /** Port {@code n}: 0 only on switches; null where absent. */
    public Port port(int n) {
        return n >= 0 && n < ports.length ? ports[n] : null;
    }

    /** The port that carries the node's LID: port 0 on a switch, else the first port. */
    public Port managementPort() {
        return type == NodeType.SWITCH ? ports[0] : ports[1];
    }

    /**
     * A switch's linear forwarding table as saved (a snapshot's): the egress port of each LID from 0 up, 0xFF where
     * unrouted; null when not known (the twin's switches then start with none, as at power-up).
     */
    public byte[] linearForwarding() {
        return linearForwarding;
    }

    public void setLinearForwarding(byte[] table) {
        if (table != null && type != NodeType.SWITCH) {
            throw new IllegalArgumentException(name + " is not a switch: it has no forwarding table");
        }
        this.linearForwarding = table == null ? null : table.clone();
    }

    public HostFacts hostFacts() {
        return hostFacts;
    }

    public void setHostFacts(HostFacts facts) {
        this.hostFacts = facts;
    }

    /** This node and its ports' values, without links ({@link Fabric#copy} cables the copies). */
    Node copy() {
        Node c = new Node(type, guid, name, numPorts());
        c.systemImageGuid = systemImageGuid;
        c.description = description;
        c.vendorId = vendorId;
        c.deviceId = deviceId;
        c.revision = revision;
        c.firmware = firmware;
        c.enhancedPort0 = enhancedPort0;
        c.hostFacts = hostFacts;
        c.linearForwarding = linearForwarding == null ? null : linearForwarding.clone();
        for (int i = 0; i < ports.length; i++) {
            if (ports[i] != null) {
                ports[i].copyInto(c.ports[i]);
            }
        }
        return c;
    }

    @Override
    public String toString() {
        return type.keyword() + " " + name;
    }
}
