package org.ibtwin.transport;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;

/**
 * Where the umad transport's C-library calls come from: {@code LibcUmad} (src/main/java22), on a JDK 22 or later on
 * Linux; elsewhere nothing, and {@link #libc()} says why in one line.
 */
public final class Umad {
    private static final Object LOCK = new Object();
    private static UmadLibc libc;
    private static String missing;

    private Umad() {
    }

    /** The C library, bound once per JVM. */
    public static UmadLibc libc() {
        synchronized (LOCK) {
            if (libc == null && missing == null) {
                load();
            }
            if (libc == null) {
                throw new MadTransportException(missing);
            }
            return libc;
        }
    }

    /** Whether {@link #libc()} has one to give. */
    public static boolean available() {
        try {
            libc();
            return true;
        } catch (MadTransportException e) {
            return false;
        }
    }

    private static void load() {
        if (Runtime.version().feature() < 22) {
            missing = "the umad transport needs a JDK 22 or later (this is " + Runtime.version().feature() + ")";
            return;
        }
        try {
            Class<?> c = Class.forName("org.ibtwin.transport.LibcUmad");
            Constructor<?> k = c.getDeclaredConstructor();
            libc = (UmadLibc) k.newInstance();
        } catch (InvocationTargetException e) {
            missing = "the umad transport cannot run here: " + e.getCause().getMessage();
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            missing = "the umad transport cannot run here: " + e;
        }
    }

    /**
     * Whether this host has an HCA, as sysfs shows it ({@code /sys/class/infiniband} lists a device): false when the
     * umad transport cannot run at all, or sysfs cannot be read.
     */
    public static boolean hcaPresent() {
        if (!available()) {
            return false;
        }
        try {
            return !new UmadSysfs(libc()).cas().isEmpty();
        } catch (UmadLibc.CallFailed | RuntimeException e) {
            return false;
        }
    }
}
