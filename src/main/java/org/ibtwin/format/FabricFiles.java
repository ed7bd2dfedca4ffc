package org.ibtwin.format;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.ibtwin.model.Fabric;

/**
 * Loads a fabric from whatever file the user names — an ibnetdiscover dump, an ibsim net file, a fabric
 * description (YAML) that points at one of those, or an ibtwin snapshot ({@link SnapshotFabric}) — and writes a
 * fabric as a topology plus its description.
 */
public final class FabricFiles {
    /** The name that selects the built-in default fabric. */
    public static final String DEFAULT_NAME = "default";
    private static final String DEFAULT_RESOURCE = "/fabrics/default";

    private FabricFiles() {
    }

    /** What a file holds. */
    public enum Kind { TOPOLOGY, DESCRIPTION }

    /** Loads {@code file}, or the built-in default fabric for the name "default" when no such file exists. */
    public static Fabric load(String name) {
        if (name == null || (name.equals(DEFAULT_NAME) && !Files.exists(Path.of(name)))) {
            return loadDefault();
        }
        return load(Path.of(name));
    }

    /** Loads a topology file or a fabric description; bad input is a {@link FormatException}. */
    public static Fabric load(Path file) {
        if (Files.isDirectory(file)) {
            throw new FormatException(file.toString(), 0, "is a directory, not a fabric file");
        }
        if (!Files.exists(file)) {
            throw new FormatException(file.toString(), 0, "no such file");
        }
        if (SnapshotFabric.looksLike(file)) {
            return SnapshotFabric.read(file);
        }
        if (detect(file) == Kind.DESCRIPTION) {
            FabricDescription d = FabricDescription.read(file);
            Path topo = d.topologyPath();
            if (topo == null) {
                throw new FormatException(file.toString(), 0, "no topology: add a 'topology:' key naming an "
                        + "ibnetdiscover or ibsim net file");
            }
            if (Files.isDirectory(topo)) {
                throw new FormatException(file.toString(), d.topologyLine(), "topology: " + topo
                        + " is a directory, not a topology file");
            }
            if (!Files.exists(topo)) {
                throw new FormatException(file.toString(), d.topologyLine(), "topology file " + topo + " not found");
            }
            Fabric f = TopologyReader.read(topo);
            d.applyTo(f);
            return f;
        }
        return TopologyReader.read(file);
    }

    /** The built-in default fabric: a small HDR cluster with a few planted problems. */
    public static Fabric loadDefault() {
        String topo = resource(DEFAULT_RESOURCE + ".topo");
        String yaml = resource(DEFAULT_RESOURCE + ".yaml");
        Fabric f = TopologyReader.read(topo, "default.topo");
        FabricDescription.parse(yaml, Path.of("default.yaml")).applyTo(f);
        return f;
    }

    /** The text of the built-in default fabric's files ("topo" or "yaml"). */
    public static String defaultFile(String extension) {
        return resource(DEFAULT_RESOURCE + "." + extension);
    }

    private static String resource(String name) {
        try (InputStream in = FabricFiles.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Tells a fabric description (YAML keys) from a topology file by the first line that says something. */
    public static Kind detect(Path file) {
        String n = file.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        if (n.endsWith(".yaml") || n.endsWith(".yml")) {
            return Kind.DESCRIPTION;
        }
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int seen = 0;
            while ((line = r.readLine()) != null && seen < 200) {
                seen++;
                String t = line.strip();
                if (t.isEmpty() || t.startsWith("#") || t.equals("---")) {
                    continue;
                }
                return t.matches("[A-Za-z_][A-Za-z0-9_]*:(\\s.*)?") ? Kind.DESCRIPTION : Kind.TOPOLOGY;
            }
            return Kind.TOPOLOGY;
        } catch (NoSuchFileException e) {
            throw new FormatException(file.toString(), 0, "no such file");
        } catch (IOException e) {
            return Kind.TOPOLOGY;
        }
    }

    /**
     * Writes {@code prefix.topo} (ibnetdiscover format) and {@code prefix.yaml} (the description that points at it),
     * in the directory of {@code prefix}, which must exist.
     * A prefix ending in .topo or .yaml loses that extension first.
     */
    public static Path[] write(Fabric fabric, Path prefix) throws IOException {
        String base = prefix.getFileName().toString().replaceFirst("\\.(topo|yaml|yml)$", "");
        Path topo = prefix.resolveSibling(base + ".topo");
        Path yaml = prefix.resolveSibling(base + ".yaml");
        try {
            TopologyWriter.write(fabric, topo);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        Files.writeString(yaml, FabricDescription.write(fabric, topo.getFileName().toString()),
                StandardCharsets.UTF_8);
        return new Path[] {topo, yaml};
    }
}
