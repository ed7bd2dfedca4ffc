package org.ibtwin.bench;

import org.ibtwin.model.LinkSpeed;
import picocli.CommandLine.Option;

/** A bench's {@code --speed}, the lane speed of every link it builds, as a picocli mixin (NDR unless it says). */
public final class BenchSpeed {
    @Option(names = "--speed", description = "Link speed (default: ${DEFAULT-VALUE}).")
    String speed = "NDR";

    /** The speed; throws IllegalArgumentException (a usage error) when it names none. */
    public LinkSpeed speed() {
        LinkSpeed s = LinkSpeed.parse(speed);
        if (s == null) {
            throw new IllegalArgumentException("--speed: unknown speed '" + speed + "'");
        }
        return s;
    }
}
