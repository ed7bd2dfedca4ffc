package org.ibtwin.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/**
 * Readings of this JVM for the benches: heap in use (with or without a collection first), the heap pools' peaks,
 * garbage collections, bytes allocated, and the process's CPU time. One instrument for every bench, so that their
 * figures compare.
 */
public final class Jvm {
    private Jvm() {
    }

    /** Heap in use now (total minus free), no collection first: it includes garbage not yet collected. */
    public static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    /** Heap in use after three full collections: what live objects hold. */
    public static long usedHeapAfterGc() {
        collect();
        return usedHeap();
    }

    /** Three explicit full collections, so that what is unreachable is gone before a reading. */
    public static void collect() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
    }

    /** Starts the heap pools' peaks afresh (see {@link #peakHeap}). */
    public static void resetPeaks() {
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                p.resetPeakUsage();
            }
        }
    }

    /** The heap pools' peaks added up: an upper bound of the heap in use at any one time since the reset. */
    public static long peakHeap() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) {
                sum += p.getPeakUsage().getUsed();
            }
        }
        return sum;
    }

    /** The JVM's garbage collections so far and the milliseconds they took, all collectors together. */
    public static long[] gcTotals() {
        long n = 0;
        long ms = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, b.getCollectionCount());
            ms += Math.max(0, b.getCollectionTime());
        }
        return new long[] {n, ms};
    }

    /** Bytes the JVM's threads have allocated so far; -1 where the JVM does not say. */
    public static long allocatedBytes() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
                && t.isThreadAllocatedMemorySupported() && t.isThreadAllocatedMemoryEnabled()) {
            return t.getTotalThreadAllocatedBytes();
        }
        return -1;
    }

    /** This process's CPU time so far (all threads, user + system), in nanoseconds; -1 where the JVM does not say. */
    public static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }
}
