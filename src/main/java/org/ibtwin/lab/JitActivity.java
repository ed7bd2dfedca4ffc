package org.ibtwin.lab;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * How busy the JVM's JIT compilers have been: the CPU time of HotSpot's compiler threads, read from Linux's
 * {@code /proc/self/task} (threads named "C1 CompilerThre…", "C2 CompilerThre…"). Unlike the JIT's own total
 * compilation time, which grows only when a compilation ends, it counts a long compilation while it runs. Where
 * {@code /proc} is not there, the compilation time reported by {@link CompilationMXBean} stands in.
 */
public final class JitActivity {
    /** Linux's clock tick (USER_HZ), the unit of a thread's times in {@code /proc}. */
    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** Compiler CPU time below which the JIT counts as idle over a stretch: one clock tick. */
    public static final long IDLE_NANOS = TICK_NANOS;
    private static final Path TASKS = Path.of("/proc/self/task");

    private JitActivity() {
    }

    /** The compiler threads' CPU time so far, in nanoseconds (its resolution is the clock tick). */
    public static long compilerCpuNanos() {
        if (Files.isDirectory(TASKS)) {
            long ticks = 0;
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
                for (Path task : tasks) {
                    ticks += compilerTicks(task);
                }
                return ticks * TICK_NANOS;
            } catch (IOException | RuntimeException e) {
                // fall through to the JIT's own figure
            }
        }
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported()
                ? TimeUnit.MILLISECONDS.toNanos(jit.getTotalCompilationTime()) : 0;
    }

    /** A compiler thread's user + system ticks; 0 for any other thread, or one that ended meanwhile. */
    private static long compilerTicks(Path task) {
        try {
            String stat = Files.readString(task.resolve("stat"));
            int open = stat.indexOf('(');
            int close = stat.lastIndexOf(')');
            if (open < 0 || close < open) {
                return 0;
            }
            String name = stat.substring(open + 1, close);
            if (!name.startsWith("C1 Compiler") && !name.startsWith("C2 Compiler")) {
                return 0;
            }
            // after "(comm) ": state is field 3; utime and stime are fields 14 and 15
            String[] f = stat.substring(close + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
