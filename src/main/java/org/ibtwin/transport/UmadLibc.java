package org.ibtwin.transport;

import java.io.IOException;
import java.util.List;

/**
 * The C-library calls behind which Linux's user_mad interface sits, as the umad transport makes them: open, close,
 * read, write, poll and ioctl on {@code /dev/infiniband/umadN}, and open/read and opendir/readdir on sysfs. The
 * implementation ({@code LibcUmad}, JDK 22 and later) resolves each symbol the way a dynamically linked C program's
 * calls are bound, in the process's global scope, so that an {@code LD_PRELOAD}ed library (libumad2sim) that
 * replaces them is the one called.
 */
public interface UmadLibc {
    int O_RDONLY = 0;
    int O_RDWR = 2;

    /** A call that failed: its name, the path or descriptor, and errno with the C library's text for it. */
    final class CallFailed extends IOException {
        private static final long serialVersionUID = 1L;
        private final int errno;

        public CallFailed(String message, int errno) {
            super(message);
            this.errno = errno;
        }

        public int errno() {
            return errno;
        }
    }

    /** ENOENT, EACCES, ETIMEDOUT, ENOSPC as Linux numbers them. */
    int ENOENT = 2;
    int EACCES = 13;
    int ENOSPC = 28;
    int ETIMEDOUT = 110;

    /** open(path, flags | O_CLOEXEC): the descriptor. */
    int open(String path, int flags) throws CallFailed;

    void close(int fd);

    /** ioctl(fd, request, arg): {@code arg} is copied in and, after the call, back out. */
    void ioctl(int fd, long request, byte[] arg) throws CallFailed;

    /** ioctl(fd, request) without an argument. */
    void ioctl(int fd, long request) throws CallFailed;

    /** write(fd, data, length): the bytes written. */
    int write(int fd, byte[] data, int length) throws CallFailed;

    /**
     * poll(fd, POLLIN, timeoutMillis) and, when it is readable, read(fd, buf): the bytes read, 0 when nothing came in
     * time.
     */
    int read(int fd, byte[] buf, int timeoutMillis) throws CallFailed;

    /** A small file's content (sysfs attributes), read with open/read/close; null when it does not exist. */
    String readFile(String path) throws CallFailed;

    /** A directory's entries but "." and "..", sorted, read with opendir/readdir; null when it does not exist. */
    List<String> list(String dir) throws CallFailed;

    /** The shared object that the call {@code symbol} was bound in (dladdr), e.g. "/lib/.../libc.so.6". */
    String boundIn(String symbol);

    /**
     * What libibumad's {@code umad_size()} returns in this process, where libibumad is loaded (libumad2sim brings it
     * in, and lays its headers out by it); null where it is not (a JVM on a kernel's umad).
     */
    default Integer umadSize() {
        return null;
    }

    /** How the symbols were looked up: "global scope (dlsym RTLD_DEFAULT)" or the JDK's default lookup. */
    String lookup();
}
