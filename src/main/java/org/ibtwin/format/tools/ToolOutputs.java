package org.ibtwin.format.tools;

import java.util.regex.Pattern;
import org.ibtwin.format.PartitionsConf;

/**
 * Tells what real tool printed a text, by its content: ibnetdiscover (and -p), iblinkinfo, ibqueryerrors,
 * perfquery, ibstat, ibstatus, ibv_devinfo, sminfo, saquery, ibroute, lspci -vv, ip -d link, ifcfg-ib0, lsmod,
 * numactl --show, OpenSM's partitions.conf, and the sysfs files numa_node and ib0's mode. The file name only
 * breaks one tie: a lone number is a numa_node value when the name says "numa".
 */
public final class ToolOutputs {
    /** What a text is. */
    public enum Kind {
        IBNETDISCOVER("ibnetdiscover"), IBNETDISCOVER_PORTS("ibnetdiscover -p"), IBLINKINFO("iblinkinfo"),
        IBQUERYERRORS("ibqueryerrors"), PERFQUERY("perfquery"), IBSTAT("ibstat"), IBSTATUS("ibstatus"),
        IBV_DEVINFO("ibv_devinfo"), SMINFO("sminfo"), SAQUERY("saquery"), IBROUTE("ibroute"), LSPCI("lspci -vv"),
        IP_LINK("ip -d link"), IFCFG("ifcfg-ib0"), LSMOD("lsmod"), NUMACTL("numactl --show"),
        PARTITIONS_CONF("partitions.conf"), NUMA_NODE("numa_node"), IPOIB_MODE("ib0 mode");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    private static final Pattern TOPO_NODE = Pattern.compile("(?m)^(Switch|Ca|Hca|Rt)\\s+\\d+\\s+\"");
    private static final Pattern TOPO_PORT = Pattern.compile("(?m)^\\s*\\[\\d+\\]");
    private static final Pattern PORTS_LINE = Pattern.compile(
            "(?m)^(SW|CA|RT)\\s+\\d+\\s+\\d+\\s+0x[0-9a-fA-F]+\\s+(\\d+x|\\?\\?)\\s");
    private static final Pattern LINKINFO = Pattern.compile("(?m)==\\(.*\\)==>");
    private static final Pattern QERR = Pattern.compile(
            "(?m)^(## Summary: \\d+ nodes checked|Errors for .*|\\s+GUID 0x[0-9a-fA-F]+ port (\\d+|ALL):)");
    private static final Pattern PERF = Pattern.compile("(?m)^# Port (extended )?counters: ");
    private static final Pattern IBSTAT = Pattern.compile("(?m)^(CA|Switch|Router) '.*'\\s*\\n\\s+\\w+ type:");
    private static final Pattern IBSTATUS = Pattern.compile("(?m)^Infiniband device '.+' port \\d+ status:");
    private static final Pattern DEVINFO = Pattern.compile("(?m)^(hca_id:\\s|No IB devices found)");
    private static final Pattern SMINFO = Pattern.compile("(?m)^sminfo: sm lid \\d+ sm guid 0x");
    private static final Pattern SAQUERY = Pattern.compile("(?m)^(NodeRecord dump:|SMInfoRecord dump:|IsSM ports)");
    private static final Pattern IBROUTE = Pattern.compile(
            "(?m)^Unicast lids \\[(0x[0-9a-fA-F]+-0x[0-9a-fA-F]+|\\d+-\\d+)\\] of");
    private static final Pattern LSPCI = Pattern.compile(
            "(?m)^([0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7] [^:]+: ");
    private static final Pattern LNK = Pattern.compile("(?m)^\\s+Lnk(Sta|Cap):");
    private static final Pattern IP_LINK = Pattern.compile("(?m)^\\d+: [^:]+: <[^>]*> mtu \\d+");
    private static final Pattern IFCFG = Pattern.compile("(?m)^\\s*(DEVICE|TYPE|CONNECTED_MODE)=");
    private static final Pattern LSMOD = Pattern.compile("^Module\\s+Size\\s+Used by");
    private static final Pattern NUMACTL = Pattern.compile("(?m)^nodebind:");
    private static final Pattern NUMA_SYSFS = Pattern.compile("(?m)^\\S*numa_node:-?\\d+\\s*$");
    private static final Pattern NUMBER = Pattern.compile("^\\s*-?\\d+\\s*$");
    private static final Pattern MODE = Pattern.compile("^\\s*(datagram|connected)\\s*$");

    private ToolOutputs() {
    }

    /** The kind of {@code text}, or null when it is none of them. */
    public static Kind detect(String text, String fileName) {
        String name = fileName.toLowerCase(java.util.Locale.ROOT);
        if (LINKINFO.matcher(text).find()) {
            return Kind.IBLINKINFO;
        }
        if (PORTS_LINE.matcher(text).find()) {
            return Kind.IBNETDISCOVER_PORTS;
        }
        if (TOPO_NODE.matcher(text).find() && TOPO_PORT.matcher(text).find()) {
            return Kind.IBNETDISCOVER;
        }
        if (PERF.matcher(text).find()) {
            return Kind.PERFQUERY;
        }
        if (QERR.matcher(text).find()) {
            return Kind.IBQUERYERRORS;
        }
        if (IBSTATUS.matcher(text).find()) {
            return Kind.IBSTATUS;
        }
        if (IBSTAT.matcher(text).find()) {
            return Kind.IBSTAT;
        }
        if (DEVINFO.matcher(text).find()) {
            return Kind.IBV_DEVINFO;
        }
        if (SMINFO.matcher(text).find()) {
            return Kind.SMINFO;
        }
        if (SAQUERY.matcher(text).find()) {
            return Kind.SAQUERY;
        }
        if (IBROUTE.matcher(text).find()) {
            return Kind.IBROUTE;
        }
        if (LSPCI.matcher(text).find() && LNK.matcher(text).find()) {
            return Kind.LSPCI;
        }
        if (IP_LINK.matcher(text).find()) {
            return Kind.IP_LINK;
        }
        if (LSMOD.matcher(text).find()) {
            return Kind.LSMOD;
        }
        if (NUMACTL.matcher(text).find()) {
            return Kind.NUMACTL;
        }
        if (NUMA_SYSFS.matcher(text).find() || (NUMBER.matcher(text).matches() && name.contains("numa"))) {
            return Kind.NUMA_NODE;
        }
        if (MODE.matcher(text).matches()) {
            return Kind.IPOIB_MODE;
        }
        if (PartitionsConf.looksLike(text)) {
            return Kind.PARTITIONS_CONF;
        }
        if (IFCFG.matcher(text).find() && text.lines().filter(l -> !l.isBlank() && !l.strip().startsWith("#"))
                .allMatch(l -> l.strip().matches("[A-Za-z_][A-Za-z0-9_]*=.*"))) {
            return Kind.IFCFG;
        }
        return null;
    }
}
