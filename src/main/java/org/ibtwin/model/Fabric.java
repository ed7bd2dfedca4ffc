package org.ibtwin.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A whole subnet: nodes, the links between their ports, and the host facts of its CAs. */
public final class Fabric {
    private final List<Node> nodes = new ArrayList<>();
    private final List<Link> links = new ArrayList<>();
    private final Map<Long, Node> byGuid = new HashMap<>();
    private final Map<String, Node> byName = new HashMap<>();

    /** Adds a node; node GUIDs and topology names must be unique. */
    public Node add(Node node) {
        if (byGuid.containsKey(node.guid())) {
            throw new IllegalArgumentException("duplicate node GUID " + Guids.hex(node.guid()) + " ("
                    + byGuid.get(node.guid()).name() + " and " + node.name() + ")");
        }
        if (byName.containsKey(node.name())) {
            throw new IllegalArgumentException("duplicate node name \"" + node.name() + "\"");
        }
        nodes.add(node);
        byGuid.put(node.guid(), node);
        byName.put(node.name(), node);
        return node;
    }

    /** Joins two free ports with a cable and trains the link. */
    public Link connect(Port a, Port b, Cable cable) {
        if (a.isSwitchPort0() || b.isSwitchPort0()) {
            throw new IllegalArgumentException("switch port 0 cannot be cabled: " + (a.isSwitchPort0() ? a : b));
        }
        if (a == b) {
            throw new IllegalArgumentException("a port cannot be cabled to itself: " + a);
        }
        if (a.link() != null) {
            throw new IllegalArgumentException(a + " is already connected to " + a.remote());
        }
        if (b.link() != null) {
            throw new IllegalArgumentException(b + " is already connected to " + b.remote());
        }
        Link l = new Link(a, b, cable);
        a.setLink(l);
        b.setLink(l);
        links.add(l);
        l.train();
        return l;
    }

    /** Removes a link (the cable is pulled): both ports go Down/Polling. */
    public void disconnect(Link l) {
        if (!links.remove(l)) {
            return;
        }
        for (Port p : new Port[] {l.a(), l.b()}) {
            p.setLink(null);
            p.setActive(null, null);
            p.setState(PortState.DOWN);
            p.setPhysState(PhysState.POLLING);
        }
    }

    public List<Node> nodes() {
        return Collections.unmodifiableList(nodes);
    }

    public List<Link> links() {
        return Collections.unmodifiableList(links);
    }

    public Node byGuid(long guid) {
        return byGuid.get(guid);
    }

    public Node byName(String name) {
        return byName.get(name);
    }

    /** Renames a node, keeping the name index right. */
    public void rename(Node n, String newName) {
        if (newName.equals(n.name())) {
            return;
        }
        if (byName.containsKey(newName)) {
            throw new IllegalArgumentException("duplicate node name \"" + newName + "\"");
        }
        byName.remove(n.name());
        n.setName(newName);
        byName.put(newName, n);
    }

    public List<Node> switches() {
        return nodes.stream().filter(Node::isSwitch).toList();
    }

    public List<Node> cas() {
        return nodes.stream().filter(n -> n.type() == NodeType.CA).toList();
    }

    public int size() {
        return nodes.size();
    }

    /**
     * A copy that shares nothing mutable with this fabric: every node, port and link with the values they have now
     * (the trained widths and speeds as they are, not trained again), for a reader that must not see later writes.
     */
    public Fabric copy() {
        Fabric f = new Fabric();
        Map<Node, Node> twin = new java.util.IdentityHashMap<>();
        for (Node n : nodes) {
            Node c = n.copy();
            twin.put(n, c);
            f.add(c);
        }
        for (Link l : links) {
            Port a = twin.get(l.a().node()).port(l.a().number());
            Port b = twin.get(l.b().node()).port(l.b().number());
            Link c = new Link(a, b, l.cable());
            a.setLink(c);
            b.setLink(c);
            f.links.add(c);
        }
        return f;
    }
}
