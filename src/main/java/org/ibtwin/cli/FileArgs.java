package org.ibtwin.cli;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * The one place a command's file options are checked and a file-system failure becomes one line: every output option
 * ({@code gen -o}, {@code snapshot save -o}, perftest's {@code --out_json} and {@code --plot}, ...) is checked before
 * the command does its work ({@link #check}), as are input files read only after a slow start ({@link #readable}:
 * {@code --script}, {@code --guid2lid}); a write is wrapped by {@link #write}; and any file-system failure that still
 * reaches {@link Main}'s handler is printed by {@link #describe} as {@code <file>: <reason>} with exit 2.
 */
final class FileArgs {
    private FileArgs() {
    }

    /**
     * Checks an input file before any work: it exists, is a file (not a directory) and can be read.
     *
     * @throws IllegalArgumentException one line naming the option and the path, for exit 2
     */
    static Path readable(String option, Path p) {
        if (Files.isDirectory(p)) {
            throw new IllegalArgumentException(option + " " + p + ": is a directory, not a file");
        }
        if (!Files.exists(p)) {
            throw new IllegalArgumentException(option + " " + p + ": no such file");
        }
        if (!Files.isReadable(p)) {
            throw new IllegalArgumentException(option + " " + p + ": cannot be read (permission denied)");
        }
        return p;
    }

    /**
     * Checks a file the command reads when it is there and writes (guid2lid, whose directory is created as OpenSM
     * creates its cache directory): it must not be a directory.
     */
    static Path notDirectory(String option, Path p) {
        if (Files.isDirectory(p)) {
            throw new IllegalArgumentException(option + " " + p + ": is a directory, not a file");
        }
        return p;
    }

    /**
     * The path an output option names, checked before any work: a usable path whose directory exists (it is not
     * created) and that is not itself a directory.
     *
     * @throws IllegalArgumentException one line naming the option and the path, for exit 2
     */
    static Path check(String option, String value) {
        Path p;
        try {
            p = Path.of(value);
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(option + " " + value + ": not a usable path (" + e.getReason() + ")");
        }
        if (value.isEmpty()) {
            throw new IllegalArgumentException(option + ": the file name is empty");
        }
        if (Files.isDirectory(p)) {
            throw new IllegalArgumentException(option + " " + value + ": is a directory");
        }
        Path dir = p.toAbsolutePath().getParent();
        if (dir != null && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException(option + " " + value + ": no such directory " + dir
                    + (Files.exists(dir) ? " (not a directory)" : ""));
        }
        return p;
    }

    /** {@link #check} for an option that takes a {@link Path}. */
    static Path check(String option, Path value) {
        return check(option, value.toString());
    }

    /** Writing an output file. */
    @FunctionalInterface
    interface Write {
        void run() throws IOException;
    }

    /**
     * Runs {@code w}, which writes the file {@code option} names; a failure is one line naming the option and the
     * file ({@code --plot: cannot write /proc/x.png: No such file or directory}).
     *
     * @throws IllegalArgumentException for exit 2
     */
    static void write(String option, Write w) {
        try {
            w.run();
        } catch (IOException e) {
            String why = describe(e);
            throw new IllegalArgumentException(option + ": cannot write " + (why != null ? why : e.getMessage()), e);
        }
    }

    /**
     * The file-system failure in {@code e} or its causes, as one line {@code <file>: <reason>}; null when there is
     * none (the failure is not about a file).
     */
    static String describe(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof FileSystemException f) {
                String file = f.getFile() == null ? "" : f.getFile() + ": ";
                String to = f.getOtherFile() == null ? "" : " (" + f.getOtherFile() + ")";
                return file + reason(f) + to;
            }
            if (t instanceof FileNotFoundException f && f.getMessage() != null) {
                // "/proc/x.png (No such file or directory)" as java.io words it
                String m = f.getMessage();
                int paren = m.lastIndexOf(" (");
                return paren > 0 && m.endsWith(")") ? m.substring(0, paren) + ": " + m.substring(paren + 2,
                        m.length() - 1) : m;
            }
            if (!(t instanceof IOException) && !(t instanceof UncheckedIOException)) {
                return null;   // only I/O failures and their wrappers are looked into
            }
        }
        return null;
    }

    private static String reason(FileSystemException f) {
        if (f.getReason() != null) {
            return f.getReason();
        }
        if (f instanceof NoSuchFileException) {
            return "No such file or directory";
        }
        if (f instanceof AccessDeniedException) {
            return "Permission denied";
        }
        if (f instanceof FileAlreadyExistsException) {
            return "File exists";
        }
        if (f instanceof NotDirectoryException) {
            return "Not a directory";
        }
        if (f instanceof DirectoryNotEmptyException) {
            return "Directory not empty";
        }
        return "cannot access";
    }
}
