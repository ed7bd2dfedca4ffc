package org.ibtwin.perf.collective;

import java.util.List;

/**
 * The GPUs a test runs on: {@code gpusPerNode} GPUs (the first ones) of each node, ranks numbered node by node as
 * mpirun places them (rank {@code i * g + j} is GPU {@code j} of node {@code i}).
 */
public record Job(List<GpuNode> nodes, int gpusPerNode) {
    public Job {
        nodes = List.copyOf(nodes);
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("a job needs at least one GPU node");
        }
        if (gpusPerNode < 1) {
            throw new IllegalArgumentException("-g must be at least 1, got " + gpusPerNode);
        }
        for (GpuNode n : nodes) {
            if (n.gpus() < gpusPerNode) {
                throw new IllegalArgumentException("-g " + gpusPerNode + ": " + n.name() + " has " + n.gpus()
                        + " GPU" + (n.gpus() == 1 ? "" : "s"));
            }
        }
    }

    public int ranks() {
        return nodes.size() * gpusPerNode;
    }

    /** The fewest NICs a node of the job has: the rails every channel can count on. */
    public int nics() {
        int k = Integer.MAX_VALUE;
        for (GpuNode n : nodes) {
            k = Math.min(k, n.nics().size());
        }
        return k;
    }

    /** Every node's NVSwitch does NVLink SHARP and there is more than one GPU per node to use it. */
    public boolean nvls() {
        if (gpusPerNode < 2) {
            return false;
        }
        for (GpuNode n : nodes) {
            if (!n.facts().nvls() || n.facts().nvlinkGBps() == 0) {
                return false;
            }
        }
        return true;
    }
}
