package org.ibtwin.bench;

import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.LinkSpeed;
import picocli.CommandLine.Option;

/**
 * The fat tree a bench generates, as {@code --levels}, {@code --radix} and {@code --hosts} (3 levels, radix 64,
 * 16,384 hosts by default): one option set for every bench that takes a shape.
 */
public final class FatTreeShape {
    @Option(names = "--levels", description = "Fat tree levels, 2 or 3 (default: ${DEFAULT-VALUE}).")
    int levels = 3;

    @Option(names = "--radix", description = "Switch radix (default: ${DEFAULT-VALUE}).")
    int radix = 64;

    @Option(names = "--hosts", description = "Hosts (default: ${DEFAULT-VALUE}).")
    int hosts = 16384;

    public int levels() {
        return levels;
    }

    public int radix() {
        return radix;
    }

    public int hosts() {
        return hosts;
    }

    /** The tree these options give, its links at {@code speed}. */
    public FatTreeSpec spec(LinkSpeed speed) {
        return FatTreeSpec.of(levels, radix, hosts).withSpeed(speed);
    }
}
