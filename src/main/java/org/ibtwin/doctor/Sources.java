package org.ibtwin.doctor;

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;
import org.ibtwin.format.FabricDescription;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.format.PartitionsConf;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Node;
import org.ibtwin.transport.MadTransport;

/** Where a state comes from: a fabric file (or the default fabric), a directory of tool outputs, or a transport. */
public final class Sources {
    /** How to reach a live fabric: what to call it, and how to open the transport (which is closed after use). */
    public record Live(String name, java.util.function.Supplier<MadTransport> open) {
    }

    private Sources() {
    }

    /**
     * The state of one source: {@code fabric} (null: the default fabric), {@code from} (a directory), or
     * {@code live} (attach and discover). At most one may be given.
     */
    public static FabricState open(String fabric, Path from, Live live, Duration interval, Consumer<String> progress) {
        int given = (fabric != null ? 1 : 0) + (from != null ? 1 : 0) + (live != null ? 1 : 0);
        if (given > 1) {
            throw new IllegalArgumentException("give one fabric: a fabric file, --from DIR or --ibsim HOST:PORT");
        }
        if (from != null) {
            return OfflineSource.load(from);
        }
        if (live != null) {
            try (MadTransport t = live.open().get()) {
                return LiveSource.discover(t, interval, progress, live.name());
            }
        }
        Fabric f = FabricFiles.load(fabric);
        String name = fabric == null || (fabric.equals(FabricFiles.DEFAULT_NAME)) ? "default (built-in)" : fabric;
        String facts = fabric == null || fabric.equals(FabricFiles.DEFAULT_NAME) ? "default.yaml"
                : fabric.endsWith(".yaml") || fabric.endsWith(".yml") ? Path.of(fabric).getFileName().toString()
                : "fabric description";
        return FabricState.of(f, name, facts);
    }

    /** Adds the host facts a fabric description gives to the hosts of a state, by host name. */
    public static void addFacts(FabricState s, String fabricFile) {
        if (fabricFile == null) {
            return;
        }
        Fabric f = FabricFiles.load(fabricFile);
        String src = fabricFile.equals(FabricFiles.DEFAULT_NAME) && !java.nio.file.Files.exists(Path.of(fabricFile))
                ? "default.yaml" : Path.of(fabricFile).getFileName().toString();
        for (Node n : f.cas()) {
            if (n.hostFacts() == null) {
                continue;
            }
            String host = FabricDescription.hostName(n);
            Node target = null;
            for (Node m : s.fabric().cas()) {
                if (FabricDescription.hostName(m).equals(host) || m.guid() == n.guid()) {
                    target = m;
                    break;
                }
            }
            String key = target != null ? s.name(target) : host;
            HostInfo given = HostInfo.of(target, key, n.hostFacts(), src);
            HostInfo h = s.host(key);
            if (target != null) {
                h.setNode(target);
            }
            for (HostInfo.Key k : HostInfo.Key.values()) {
                if (!h.has(k) && given.has(k)) {
                    h.set(k, given.fact(k).value(), src);
                }
            }
        }
    }

    public static void addPartitions(FabricState s, Path file) {
        if (file != null) {
            s.partitions(PartitionsConf.read(file));
        }
    }
}
