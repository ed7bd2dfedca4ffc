package org.ibtwin.gen;

import java.util.Arrays;
import org.ibtwin.model.Cable;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;

/**
 * Builds folded-Clos fat trees.
 *
 * <p><b>Two levels.</b> Hosts fill leaves in order, host {@code i} (0-based) on leaf {@code i / d}, port
 * {@code i % d + 1}, where {@code d} is {@link FatTreeSpec#downPorts()}; a leaf's {@code u} uplinks are its ports
 * {@code d+1 .. radix}. There are as few spines as hold every uplink, {@code ceil(leaves*u / radix)}, and the uplinks
 * are dealt round-robin over them in leaf order, so every leaf reaches every spine (with parallel links when there
 * are fewer spines than uplinks) and no spine takes more than {@code radix} links. Switch names: leaf01.., spine01..
 *
 * <p><b>Three levels.</b> With {@code k = radix/2}, a pod is {@code k} leaves and {@code u} spines (the aggregation
 * level): leaf {@code j} of a pod joins spine {@code a} of the pod from its port {@code d+1+a} to the spine's port
 * {@code j+1}; a pod spine's ports {@code 1..k} face leaves and {@code k+1..radix} face cores. The cores form
 * {@code u} groups, group {@code a} serving spine {@code a} of every pod; a group has
 * {@code ceil(pods*k / radix)} cores and the pod spines' uplinks are dealt round-robin over it, as in two levels.
 * Only the pods, leaves and cores the host count needs are built; a pod always gets all {@code u} spines. Switch
 * names: pod01-leaf01, pod01-spine01, core01.
 *
 * <p>Switches come first in the node list (leaves, then spines, then cores; pod by pod for 3 levels), then hosts.
 */
public final class FatTree {

    /**
     * The switch counts a spec needs.
     *
     * @param downPorts leaf ports facing hosts
     * @param upPorts   leaf ports facing the level above
     * @param pods      pods (3 levels), 0 for 2 levels
     * @param leaves    leaf switches
     * @param spines    spines: the top level for 2 levels, the pod spines (aggregation) for 3
     * @param cores     core switches, 0 for 2 levels
     */
    public record Plan(int downPorts, int upPorts, int pods, int leaves, int spines, int cores) {
        public int switches() {
            return leaves + spines + cores;
        }
    }

    private FatTree() {
    }

    /** How many switches of each kind {@code spec} needs. */
    public static Plan plan(FatTreeSpec spec) {
        int r = spec.radix();
        int d = spec.downPorts();
        int u = spec.upPorts();
        int leaves = ceilDiv(spec.hosts(), d);
        if (spec.levels() == 2) {
            return new Plan(d, u, 0, leaves, ceilDiv(leaves * u, r), 0);
        }
        int k = r / 2;
        int pods = ceilDiv(leaves, k);
        return new Plan(d, u, pods, leaves, pods * u, u * ceilDiv(pods * k, r));
    }

    /**
     * Builds the fabric {@code spec} describes, every link trained at the spec's speed and 4x (2x where the radix
     * asks for split switch ports, {@link org.ibtwin.model.DeviceCatalog#widthAt}).
     */
    public static Fabric build(FatTreeSpec spec) {
        Plan plan = plan(spec);
        FabricBuilder b = new FabricBuilder(spec.speed(), spec.guidBase(), spec::hostName, spec.radix());
        Node[] leaves = spec.levels() == 2 ? buildTwoLevels(spec, plan, b) : buildThreeLevels(spec, plan, b);
        int d = plan.downPorts();
        for (int i = 0; i < spec.hosts(); i++) {
            Node host = b.addHost();
            b.connect(host.port(1), leaves[i / d].port(i % d + 1), b.hostCable);
        }
        return b.fabric();
    }

    private static Node[] buildTwoLevels(FatTreeSpec spec, Plan plan, FabricBuilder b) {
        int r = spec.radix();
        Node[] leaves = new Node[plan.leaves()];
        for (int l = 0; l < leaves.length; l++) {
            leaves[l] = b.addSwitch(FabricBuilder.numbered("leaf", l + 1, leaves.length), r);
        }
        Node[] spines = new Node[plan.spines()];
        for (int s = 0; s < spines.length; s++) {
            spines[s] = b.addSwitch(FabricBuilder.numbered("spine", s + 1, spines.length), r);
        }
        deal(leaves, plan.downPorts() + 1, plan.upPorts(), spines, b, b.switchCable);
        return leaves;
    }

    private static Node[] buildThreeLevels(FatTreeSpec spec, Plan plan, FabricBuilder b) {
        int r = spec.radix();
        int k = r / 2;
        int d = plan.downPorts();
        int u = plan.upPorts();
        Node[] leaves = new Node[plan.leaves()];
        Node[][] podSpines = new Node[plan.pods()][u];
        for (int p = 0; p < plan.pods(); p++) {
            String pod = FabricBuilder.numbered("pod", p + 1, plan.pods()) + "-";
            int first = p * k;
            int count = Math.min(k, leaves.length - first);
            for (int j = 0; j < count; j++) {
                leaves[first + j] = b.addSwitch(FabricBuilder.numbered(pod + "leaf", j + 1, k), r);
            }
            for (int a = 0; a < u; a++) {
                podSpines[p][a] = b.addSwitch(FabricBuilder.numbered(pod + "spine", a + 1, u), r);
            }
            for (int j = 0; j < count; j++) {
                for (int a = 0; a < u; a++) {
                    b.connect(leaves[first + j].port(d + 1 + a), podSpines[p][a].port(j + 1), b.switchCable);
                }
            }
        }
        int perGroup = plan.cores() / u;
        Node[][] groups = new Node[u][perGroup];
        for (int a = 0; a < u; a++) {
            for (int c = 0; c < perGroup; c++) {
                groups[a][c] = b.addSwitch(FabricBuilder.numbered("core", a * perGroup + c + 1, plan.cores()), r);
            }
        }
        for (int a = 0; a < u; a++) {
            Node[] group = new Node[plan.pods()];
            for (int p = 0; p < plan.pods(); p++) {
                group[p] = podSpines[p][a];
            }
            deal(group, k + 1, k, groups[a], b, b.coreCable);
        }
        return leaves;
    }

    /**
     * Deals the {@code ups} uplinks of each lower switch (ports {@code firstUpPort..}) round-robin over the upper
     * switches, lower switch by lower switch, filling each upper switch's ports from 1.
     */
    private static void deal(Node[] lower, int firstUpPort, int ups, Node[] upper, FabricBuilder b, Cable cable) {
        int[] nextPort = new int[upper.length];
        Arrays.fill(nextPort, 1);
        int turn = 0;
        for (Node low : lower) {
            for (int i = 0; i < ups; i++) {
                int s = turn++ % upper.length;
                b.connect(low.port(firstUpPort + i), upper[s].port(nextPort[s]++), cable);
            }
        }
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }
}
