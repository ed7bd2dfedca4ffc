package org.ibtwin.transport;

import java.io.Serial;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A unix socket's name in Linux's abstract namespace (the {@code "\0"}-led names ibsim's local mode uses:
 * {@code "sim:ctl"}, {@code "sim:out3"}, {@code "sim:in4711"}), without the leading NUL. On the wire the name is
 * followed by a terminating NUL that the address length counts, as ibsim and libumad2sim form it: {@code "sim:ctl"}
 * and {@code "sim:ctl\0"} are different abstract names. The JDK's {@link java.net.UnixDomainSocketAddress} names
 * files only.
 */
public final class LocalAddress extends SocketAddress {
    @Serial
    private static final long serialVersionUID = 1L;

    /** The longest name: {@code sun_path} holds 108 bytes, the leading and the terminating NUL two of them. */
    public static final int MAX_NAME = 106;

    private final String name;

    /** {@code name}: 1 to {@value #MAX_NAME} bytes of US-ASCII, without NUL. */
    public LocalAddress(String name) {
        Objects.requireNonNull(name, "name");
        if (!isName(name)) {
            throw new IllegalArgumentException("bad abstract socket name \"" + name + "\": 1 to " + MAX_NAME
                    + " ASCII characters, no NUL");
        }
        this.name = name;
    }

    /** Whether {@code s} can name an abstract socket: 1 to {@value #MAX_NAME} US-ASCII characters, no NUL. */
    public static boolean isName(String s) {
        return !s.isEmpty() && s.length() <= MAX_NAME && s.indexOf('\0') < 0
                && StandardCharsets.US_ASCII.newEncoder().canEncode(s);
    }

    public String name() {
        return name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LocalAddress l && l.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    /** As {@code ss -x} shows it: {@code @sim:ctl}. */
    @Override
    public String toString() {
        return "@" + name;
    }
}
