package org.ibtwin.perf.collective;

import java.util.Locale;

/**
 * The collectives nccl-tests measures, with the conventions its tests print and count by.
 *
 * <p><b>Sizes.</b> nccl-tests takes a size {@code b} and an element type; {@code count = b / typeSize}. For
 * all_gather, reduce_scatter and alltoall the per-rank count is {@code count / nranks} rounded down to a multiple of
 * 16 bytes' worth of elements, and the printed size is the whole array, that count times {@code nranks} times the
 * type size. For the others the printed size is {@code b}.
 *
 * <p><b>Bus bandwidth.</b> {@code algbw = size / time}; {@code busbw = algbw x factor} with factor {@code 2(n-1)/n}
 * for all_reduce, {@code (n-1)/n} for all_gather, reduce_scatter and alltoall, 1 for broadcast, reduce and sendrecv
 * (nccl-tests doc/PERFORMANCE.md), so that busbw compares with the hardware whatever the rank count.
 *
 * <p><b>Ring steps.</b> The steps NCCL's cost model charges a ring with: {@code 2(n-1)} for all_reduce, {@code n-1}
 * for all_gather and reduce_scatter, {@code n} for the rest.
 */
public enum Collective {
    ALL_REDUCE("all_reduce", true, -1),
    ALL_GATHER("all_gather", false, -1),
    REDUCE_SCATTER("reduce_scatter", true, -1),
    BROADCAST("broadcast", false, 0),
    REDUCE("reduce", true, 0),
    ALLTOALL("alltoall", false, -1),
    SENDRECV("sendrecv", true, -1);

    private final String label;
    private final boolean reduces;
    private final int defaultRoot;

    Collective(String label, boolean reduces, int defaultRoot) {
        this.label = label;
        this.reduces = reduces;
        this.defaultRoot = defaultRoot;
    }

    /** "all_reduce". */
    public String label() {
        return label;
    }

    /** The nccl-tests program: "all_reduce_perf". */
    public String program() {
        return label + "_perf";
    }

    /** The test prints a reduction operation ("sum"); the others print "none". */
    public boolean reduces() {
        return reduces;
    }

    /** The root the test prints: 0 for broadcast and reduce (-r), -1 for the rest. */
    public int defaultRoot() {
        return defaultRoot;
    }

    /** The program named, or null: "all_reduce_perf" or "all_reduce". */
    public static Collective ofProgram(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        for (Collective c : values()) {
            if (c.program().equals(n) || c.label.equals(n)) {
                return c;
            }
        }
        return null;
    }

    /** The busbw factor for {@code n} ranks. */
    public double busFactor(int n) {
        return switch (this) {
            case ALL_REDUCE -> 2.0 * (n - 1) / n;
            case ALL_GATHER, REDUCE_SCATTER, ALLTOALL -> (double) (n - 1) / n;
            case BROADCAST, REDUCE, SENDRECV -> 1;
        };
    }

    /** NCCL's ring step count for {@code n} ranks. */
    public int ringSteps(int n) {
        return switch (this) {
            case ALL_REDUCE -> 2 * (n - 1);
            case ALL_GATHER, REDUCE_SCATTER -> n - 1;
            default -> n;
        };
    }

    /** Elements per rank the test passes to NCCL for a size of {@code bytes} ({@code -b}/{@code -e} steps). */
    public long count(long bytes, int typeSize, int ranks) {
        long count = bytes / typeSize;
        return switch (this) {
            case ALL_GATHER, REDUCE_SCATTER, ALLTOALL -> (count / ranks) & ~(16L / typeSize - 1);
            default -> count;
        };
    }

    /** The size the test prints and divides by the time, bytes. */
    public long size(long bytes, int typeSize, int ranks) {
        long c = count(bytes, typeSize, ranks);
        return switch (this) {
            case ALL_GATHER, REDUCE_SCATTER, ALLTOALL -> c * ranks * typeSize;
            default -> c * typeSize;
        };
    }
}
