package org.ibtwin.diag;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ibidsverify's check of a topology (ibnetdiscover -g output): LIDs that are 0 or given twice, node GUIDs and port
 * GUIDs given twice, port GUIDs equal to another node's GUID. It reads the text as infiniband-diags' script reads
 * it, in order, so that it finds and words the same problems: a LID or GUID is "already defined" for whichever node
 * the topology listed first, GUIDs are compared as the topology spells them, and a GUID of zero is only noticed when
 * it is spelled "0" (ibnetdiscover writes "0x0").
 */
public final class IdsVerify {
    private static final int UNIX = Pattern.UNIX_LINES;
    private static final Pattern CAGUID = Pattern.compile("^caguid=(.*)", UNIX);
    private static final Pattern RTGUID = Pattern.compile("^rtguid=(.*)", UNIX);
    private static final Pattern SWITCHGUID = Pattern.compile("^switchguid=(.*)", UNIX);
    private static final Pattern SWITCHGUID_PORT = Pattern.compile("^switchguid=(.*)\\((.*)\\)", UNIX);
    private static final Pattern SWITCH = Pattern.compile("^Switch.*\"S-(.*)\"\\s+# (.*) port.* lid (\\d+) .*", UNIX);
    private static final Pattern[] TO_NODE = {
        Pattern.compile("\"S-(.*)# lid (\\d+) .*", UNIX),
        Pattern.compile("^.*\"H-(.*)# lid (\\d+) .*", UNIX),
        Pattern.compile("^.*\"R-(.*)# lid (\\d+) .*", UNIX)};
    private static final Pattern PORT_GUID = Pattern.compile("^\\[(\\d+)\\]\\((.*)\\)", UNIX);

    /** What is wrong. */
    public enum Kind {
        /** A port with LID 0. */
        LID_ZERO,
        /** A GUID spelled "0". */
        GUID_ZERO,
        /** A LID that an earlier port has. */
        DUPLICATE_LID,
        /** A node GUID that an earlier node has. */
        DUPLICATE_NODE_GUID,
        /** A port GUID that an earlier port has. */
        DUPLICATE_PORT_GUID,
        /** A port GUID that is another node's GUID. */
        PORT_GUID_IS_NODE_GUID
    }

    /**
     * One problem: its kind, the line the script prints, the node type ("switch", "ca", "router"), the GUID and LID
     * concerned, and the other holder of the identifier (a node GUID or a LID), when there is one.
     */
    public record Problem(Kind kind, String message, String nodeType, String guid, String lid, String other) {
    }

    private final List<Problem> problems = new ArrayList<>();
    private final Map<String, String> lids = new HashMap<>();        // LID -> node GUID
    private final Map<String, String> nodeGuids = new HashMap<>();   // node GUID -> LID
    private final Map<String, String> portGuids = new HashMap<>();   // port GUID -> LID

    private IdsVerify() {
    }

    /** The problems of {@code topology}, in the order the script finds them (none: exit code 0, else 1). */
    public static List<Problem> check(String topology) {
        IdsVerify v = new IdsVerify();
        v.walk(topology);
        return v.problems;
    }

    /** The script's output for these problems: one line each. */
    public static String text(List<Problem> problems) {
        StringBuilder sb = new StringBuilder();
        for (Problem p : problems) {
            sb.append(p.message()).append('\n');
        }
        return sb.toString();
    }

    private void walk(String topology) {
        String nodeType = "";
        String nodeGuid = "";
        String portGuid = "";
        String lid = "";
        boolean firstPort = false;
        for (String line : LftBalance.lines(topology)) {
            Matcher m = CAGUID.matcher(line);
            Matcher r = RTGUID.matcher(line);
            if (m.find()) {
                nodeGuid = m.group(1);
                nodeType = "";
            } else if (r.find()) {
                nodeGuid = r.group(1);
                nodeType = "";
            }
            if ((m = SWITCHGUID.matcher(line)).find()) {
                nodeGuid = m.group(1);
                portGuid = "";
                nodeType = "";
            }
            if ((m = SWITCHGUID_PORT.matcher(line)).find()) {
                nodeGuid = m.group(1);
                portGuid = "0x" + m.group(2);
            }
            if ((m = SWITCH.matcher(line)).find()) {
                nodeType = "switch";
                firstPort = true;
                lid = m.group(3);
                insertLid(lid, nodeGuid, nodeType);
                insertNodeGuid(lid, nodeGuid, nodeType);
                if (!portGuid.isEmpty()) {
                    insertPortGuid(lid, portGuid, nodeType, nodeGuid);
                }
            }
            if (line.startsWith("Ca")) {
                nodeType = "ca";
                firstPort = true;
            }
            if (line.startsWith("Rt")) {
                nodeType = "router";
                firstPort = true;
            }
            if (nodeType.equals("ca") || nodeType.equals("router")) {
                for (Pattern p : TO_NODE) {
                    if ((m = p.matcher(line)).find()) {
                        lid = m.group(2);
                        insertLid(lid, nodeGuid, nodeType);
                        if (firstPort) {
                            insertNodeGuid(lid, nodeGuid, nodeType);
                            firstPort = false;
                        }
                    }
                }
                if ((m = PORT_GUID.matcher(line)).find()) {
                    portGuid = "0x" + m.group(2);
                    insertPortGuid(lid, portGuid, nodeType, nodeGuid);
                }
            }
        }
    }

    private void insertLid(String lid, String nodeGuid, String nodeType) {
        if (lid.equals("0")) {
            problems.add(new Problem(Kind.LID_ZERO, "LID 0 found for " + nodeType + " NodeGUID " + nodeGuid,
                    nodeType, nodeGuid, lid, null));
            return;
        }
        String had = lids.get(lid);
        if (had != null) {
            problems.add(new Problem(Kind.DUPLICATE_LID, "LID " + lid + " already defined for NodeGUID " + had,
                    nodeType, nodeGuid, lid, had));
        } else {
            lids.put(lid, nodeGuid);
        }
    }

    private boolean zeroGuid(String lid, String guid, String nodeType) {
        if (guid.equals("0")) {
            problems.add(new Problem(Kind.GUID_ZERO, nodeType + " GUID 0x0 found with LID " + lid, nodeType, guid,
                    lid, null));
            return true;
        }
        return false;
    }

    private void insertNodeGuid(String lid, String nodeGuid, String nodeType) {
        if (zeroGuid(lid, nodeGuid, nodeType)) {
            return;
        }
        String had = nodeGuids.get(nodeGuid);
        if (had != null) {
            problems.add(new Problem(Kind.DUPLICATE_NODE_GUID, "NodeGUID " + nodeGuid + " already defined for LID "
                    + had, nodeType, nodeGuid, lid, had));
        } else {
            nodeGuids.put(nodeGuid, lid);
        }
    }

    private void insertPortGuid(String lid, String portGuid, String nodeType, String nodeGuid) {
        if (zeroGuid(lid, portGuid, nodeType)) {
            return;
        }
        String had = portGuids.get(portGuid);
        if (had != null) {
            problems.add(new Problem(Kind.DUPLICATE_PORT_GUID, "PortGUID " + portGuid + " already defined for LID "
                    + had, nodeType, portGuid, lid, had));
            return;
        }
        portGuids.put(portGuid, lid);
        if (!nodeGuid.equals(portGuid) && nodeGuids.containsKey(portGuid)) {
            problems.add(new Problem(Kind.PORT_GUID_IS_NODE_GUID, "PortGUID " + portGuid
                    + " is an invalid duplicate of a NodeGUID", nodeType, portGuid, lid, nodeGuids.get(portGuid)));
        }
    }
}
