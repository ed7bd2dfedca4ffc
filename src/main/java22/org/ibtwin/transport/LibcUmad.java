package org.ibtwin.transport;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@link UmadLibc} through the Foreign Function API (JDK 22 and later, Linux).
 *
 * <p>Symbols are bound as a dynamically linked C program's are: {@code dlsym(RTLD_DEFAULT, name)}, the process's
 * global scope, where an {@code LD_PRELOAD}ed library comes before the C library. The JDK's
 * {@link Linker#defaultLookup()} is not that: it looks in the C library itself, past any preloaded replacement, so
 * a JVM under libumad2sim would reach the kernel (and find no HCA) through it. The system property
 * {@code ibtwin.umad.lookup=jdk} selects it anyway (tests show the difference with it).
 */
@SuppressWarnings("restricted")   // linking to the C library is this class's job
final class LibcUmad implements UmadLibc {
    private static final int O_CLOEXEC = 0x80000;
    private static final short POLLIN = 1;
    private static final int EINTR = 4;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup JDK = LINKER.defaultLookup();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option ERRNO_OPTION = Linker.Option.captureCallState("errno");
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;
    private static final java.lang.foreign.AddressLayout ADDR = ValueLayout.ADDRESS;

    private static final boolean GLOBAL = !"jdk".equals(System.getProperty("ibtwin.umad.lookup"));
    private static final MethodHandle DLSYM = LINKER.downcallHandle(JDK.find("dlsym").orElseThrow(),
            FunctionDescriptor.of(ADDR, ADDR, ADDR));
    private static final MethodHandle DLADDR = LINKER.downcallHandle(JDK.find("dladdr").orElseThrow(),
            FunctionDescriptor.of(INT, ADDR, ADDR));

    private static final Map<String, MemorySegment> BOUND = new LinkedHashMap<>();
    private static final MethodHandle OPEN = handle("open", FunctionDescriptor.of(INT, ADDR, INT, INT),
            Linker.Option.firstVariadicArg(2));
    private static final MethodHandle CLOSE = handle("close", FunctionDescriptor.of(INT, INT));
    private static final MethodHandle READ = handle("read", FunctionDescriptor.of(LONG, INT, ADDR, LONG));
    private static final MethodHandle WRITE = handle("write", FunctionDescriptor.of(LONG, INT, ADDR, LONG));
    private static final MethodHandle POLL = handle("poll", FunctionDescriptor.of(INT, ADDR, LONG, INT));
    private static final MethodHandle IOCTL = handle("ioctl", FunctionDescriptor.of(INT, INT, LONG, ADDR),
            Linker.Option.firstVariadicArg(2));
    private static final MethodHandle OPENDIR = handle("opendir", FunctionDescriptor.of(ADDR, ADDR));
    private static final MethodHandle READDIR = handle("readdir",
            FunctionDescriptor.of(ADDR.withTargetLayout(MemoryLayout.sequenceLayout(280, ValueLayout.JAVA_BYTE)),
                    ADDR));
    private static final MethodHandle CLOSEDIR = handle("closedir", FunctionDescriptor.of(INT, ADDR));
    private static final MethodHandle STRERROR = LINKER.downcallHandle(JDK.find("strerror").orElseThrow(),
            FunctionDescriptor.of(ADDR.withTargetLayout(MemoryLayout.sequenceLayout(256, ValueLayout.JAVA_BYTE)),
                    INT));

    /** struct dirent's d_name offset (x86-64 and aarch64 glibc: ino 8, off 8, reclen 2, type 1). */
    private static final int D_NAME = 19;

    LibcUmad() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (!os.startsWith("linux")) {
            throw new UnsupportedOperationException("not Linux: " + os);
        }
    }

    private static MethodHandle handle(String name, FunctionDescriptor d, Linker.Option... more) {
        MemorySegment at = find(name).orElseThrow(() -> new UnsatisfiedLinkError(name));
        BOUND.put(name, at);
        Linker.Option[] options = new Linker.Option[more.length + 1];
        options[0] = ERRNO_OPTION;
        System.arraycopy(more, 0, options, 1, more.length);
        return LINKER.downcallHandle(at, d, options);
    }

    /** {@code name}'s address in the global scope (dlsym(RTLD_DEFAULT, name)), or the JDK's lookup when asked. */
    private static Optional<MemorySegment> find(String name) {
        if (!GLOBAL) {
            return JDK.find(name);
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment at = (MemorySegment) DLSYM.invokeExact(MemorySegment.NULL, a.allocateFrom(name));
            return at.equals(MemorySegment.NULL) ? Optional.empty() : Optional.of(at);
        } catch (Throwable t) {
            throw new IllegalStateException("dlsym " + name + ": " + t, t);
        }
    }

    @Override
    public Integer umadSize() {
        Optional<MemorySegment> at = GLOBAL ? find("umad_size") : Optional.empty();
        if (at.isEmpty()) {
            return null;
        }
        try {
            return (int) (long) LINKER.downcallHandle(at.get(), FunctionDescriptor.of(LONG)).invokeExact();
        } catch (Throwable t) {
            return null;
        }
    }

    @Override
    public String lookup() {
        return GLOBAL ? "global scope (dlsym RTLD_DEFAULT)" : "the JDK's default lookup";
    }

    @Override
    public String boundIn(String symbol) {
        MemorySegment at = BOUND.get(symbol);
        if (at == null) {
            return "not bound";
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment info = a.allocate(32, 8);
            int ok = (int) DLADDR.invokeExact(at, info);
            if (ok == 0) {
                return "unknown";
            }
            MemorySegment file = info.get(ADDR, 0).reinterpret(4096);
            return file.getString(0);
        } catch (Throwable t) {
            return "unknown (" + t + ")";
        }
    }

    @Override
    public int open(String path, int flags) throws CallFailed {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment errno = a.allocate(CALL_STATE);
            int fd;
            do {
                fd = (int) OPEN.invokeExact(errno, a.allocateFrom(path), flags | O_CLOEXEC, 0);
            } while (fd < 0 && errno(errno) == EINTR);
            if (fd < 0) {
                throw failed("open " + path, errno(errno));
            }
            return fd;
        } catch (CallFailed | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override
    public void close(int fd) {
        try (Arena a = Arena.ofConfined()) {
            int ignored = (int) CLOSE.invokeExact(a.allocate(CALL_STATE), fd);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public void ioctl(int fd, long request, byte[] arg) throws CallFailed {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment errno = a.allocate(CALL_STATE);
            MemorySegment buf = a.allocate(Math.max(8, arg.length), 8);
            MemorySegment.copy(arg, 0, buf, ValueLayout.JAVA_BYTE, 0, arg.length);
            int r = (int) IOCTL.invokeExact(errno, fd, request, buf);
            if (r < 0) {
                throw failed(String.format("ioctl 0x%x", request), errno(errno));
            }
            MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, 0, arg, 0, arg.length);
        } catch (CallFailed | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override
    public void ioctl(int fd, long request) throws CallFailed {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment errno = a.allocate(CALL_STATE);
            int r = (int) IOCTL.invokeExact(errno, fd, request, MemorySegment.NULL);
            if (r < 0) {
                throw failed(String.format("ioctl 0x%x", request), errno(errno));
            }
        } catch (CallFailed | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override
    public int write(int fd, byte[] data, int length) throws CallFailed {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment errno = a.allocate(CALL_STATE);
            // zeros past the end: a MAD written short is read whole (256 bytes) by libumad2sim
            MemorySegment buf = a.allocate(Math.max(length, 56 + 256), 8);
            MemorySegment.copy(data, 0, buf, ValueLayout.JAVA_BYTE, 0, length);
            long n;
            do {
                n = (long) WRITE.invokeExact(errno, fd, buf, (long) length);
            } while (n < 0 && errno(errno) == EINTR);
            if (n < 0) {
                throw failed("write", errno(errno));
            }
            return (int) n;
        } catch (CallFailed | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override
    public int read(int fd, byte[] buf, int timeoutMillis) throws CallFailed {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment errno = a.allocate(CALL_STATE);
            MemorySegment pfd = a.allocate(8, 4);
            pfd.set(INT, 0, fd);
            pfd.set(ValueLayout.JAVA_SHORT, 4, POLLIN);
            int r = (int) POLL.invokeExact(errno, pfd, 1L, timeoutMillis);
            if (r < 0) {
                if (errno(errno) == EINTR) {
                    return 0;
                }
                throw failed("poll", errno(errno));
            }
            if (r == 0) {
                return 0;
            }
            MemorySegment data = a.allocate(buf.length, 8);
            long n;
            do {
                n = (long) READ.invokeExact(errno, fd, data, (long) buf.length);
            } while (n < 0 && errno(errno) == EINTR);
            if (n < 0) {
                throw failed("read", errno(errno));
            }
            MemorySegment.copy(data, ValueLayout.JAVA_BYTE, 0, buf, 0, (int) n);
            return (int) n;
        } catch (CallFailed | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override
    public String readFile(String path) throws CallFailed {
        int fd;
        try {
            fd = open(path, O_RDONLY);
        } catch (CallFailed e) {
            if (e.errno() == ENOENT) {
                return null;
            }
            throw e;
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment errno = a.allocate(CALL_STATE);
            MemorySegment buf = a.allocate(4096);
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            while (true) {
                long n = (long) READ.invokeExact(errno, fd, buf, 4096L);
                if (n < 0) {
                    if (errno(errno) == EINTR) {
                        continue;
                    }
                    throw failed("read " + path, errno(errno));
                }
                if (n == 0) {
                    break;
                }
                out.write(buf.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE));
            }
            return out.toString(StandardCharsets.UTF_8);
        } catch (CallFailed | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        } finally {
            close(fd);
        }
    }

    @Override
    public List<String> list(String dir) throws CallFailed {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment errno = a.allocate(CALL_STATE);
            MemorySegment d = (MemorySegment) OPENDIR.invokeExact(errno, a.allocateFrom(dir));
            if (d.equals(MemorySegment.NULL)) {
                int e = errno(errno);
                if (e == ENOENT || e == 20) {   // ENOTDIR
                    return null;
                }
                throw failed("opendir " + dir, e);
            }
            List<String> names = new ArrayList<>();
            try {
                while (true) {
                    MemorySegment ent = (MemorySegment) READDIR.invokeExact(errno, d);
                    if (ent.equals(MemorySegment.NULL)) {
                        break;
                    }
                    String name = ent.getString(D_NAME);
                    if (!name.equals(".") && !name.equals("..")) {
                        names.add(name);
                    }
                }
            } finally {
                int ignored = (int) CLOSEDIR.invokeExact(errno, d);
            }
            Collections.sort(names);
            return names;
        } catch (CallFailed | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static CallFailed failed(String call, int errno) {
        return new CallFailed(call + ": " + strerror(errno), errno);
    }

    private static int errno(MemorySegment callState) {
        return (int) ERRNO.get(callState, 0L);
    }

    private static String strerror(int errno) {
        try {
            MemorySegment s = (MemorySegment) STRERROR.invokeExact(errno);
            return s.getString(0);
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }

    private static RuntimeException unexpected(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
