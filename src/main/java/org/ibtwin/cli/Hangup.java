package org.ibtwin.cli;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * SIGHUP as OpenSM takes it: not the end of the process but a request (reread the partitions file, sweep). The
 * JDK's only handle on a signal is {@code sun.misc.Signal} (module jdk.unsupported, exported); it is reached by
 * reflection, so the build names no internal API. Where it is missing the default stays (SIGHUP ends the process)
 * and {@link #install} says so.
 */
final class Hangup {
    private Hangup() {
    }

    /** Runs {@code action} on the JVM's signal thread on every SIGHUP; false when signals cannot be handled here. */
    static boolean install(Runnable action) {
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handler = Class.forName("sun.misc.SignalHandler");
            Object hup = signal.getConstructor(String.class).newInstance("HUP");
            InvocationHandler h = (Object proxy, Method m, Object[] args) -> {
                if (m.getName().equals("handle")) {
                    action.run();
                    return null;
                }
                return switch (m.getName()) {
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    case "toString" -> "ibtwin SIGHUP handler";
                    default -> null;
                };
            };
            Object proxy = Proxy.newProxyInstance(Hangup.class.getClassLoader(), new Class<?>[] {handler}, h);
            signal.getMethod("handle", signal, handler).invoke(null, hup, proxy);
            return true;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return false;
        }
    }
}
