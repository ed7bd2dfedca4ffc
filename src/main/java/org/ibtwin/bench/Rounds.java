package org.ibtwin.bench;

import picocli.CommandLine.Option;

/**
 * A bench's {@code --rounds} (measured) and {@code --warmup} (run first, not measured), as a picocli mixin; each
 * bench gives its own defaults ({@code @Mixin Rounds rounds = new Rounds(5, 2);}).
 */
public final class Rounds {
    @Option(names = "--rounds", description = "Measured rounds (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--warmup", description = "Warm-up rounds (default: ${DEFAULT-VALUE}).")
    int warmup;

    /** Five measured rounds after two warm-up ones. */
    public Rounds() {
        this(5, 2);
    }

    public Rounds(int rounds, int warmup) {
        this.rounds = rounds;
        this.warmup = warmup;
    }

    /** The measured rounds, after {@link #check()}. */
    public int rounds() {
        check();
        return rounds;
    }

    /** The warm-up rounds, after {@link #check()}. */
    public int warmup() {
        check();
        return warmup;
    }

    /** Throws IllegalArgumentException (a usage error) unless there is a measured round and no negative warm-up. */
    public void check() {
        if (rounds < 1 || warmup < 0) {
            throw new IllegalArgumentException("--rounds must be >= 1 and --warmup >= 0");
        }
    }
}
