package org.ibtwin.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.gen.GpuCluster;
import org.ibtwin.gen.Direct;
import org.ibtwin.gen.Shapes;
import org.ibtwin.gen.Variants;
import org.ibtwin.model.DeviceCatalog;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Guids;
import org.ibtwin.model.LinkSpeed;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code ibtwin gen}: builds a fabric in memory and writes its files with {@link FabricFiles#write}.
 *
 * <p>Usage errors print one line, {@code ibtwin gen <shape>: <what is wrong>}, to stderr and exit 2. Option values
 * are taken as text and checked here, and unknown options are collected rather than left to picocli, so that holds
 * whatever parameter-exception handler the root command has; {@link #handleParseError} gives the same one-line form
 * for what picocli itself still rejects (an option without its value).
 */
@Command(name = "gen", mixinStandardHelpOptions = true,
        description = "Build a fabric and write its files.",
        subcommands = {GenCommand.FatTreeCommand.class, GenCommand.BackToBackCommand.class,
                GenCommand.SingleSwitchCommand.class, GenCommand.GpuFatTreeCommand.class, GenCommand.TorusCommand.class,
                GenCommand.MeshCommand.class, GenCommand.HypercubeCommand.class, GenCommand.DragonflyCommand.class,
                GenCommand.HyperxCommand.class})
public final class GenCommand extends CliCommand {
    /** Exit code of a usage error. */
    public static final int USAGE = 2;
    /** Exit code when the files cannot be written. */
    public static final int WRITE_FAILED = USAGE;


    @Override
    public Integer call() {
        spec.commandLine().getErr().println("ibtwin gen: name a shape: fat-tree, back-to-back, single-switch, "
                + "gpu-fat-tree, torus, mesh, hypercube, dragonfly or hyperx");
        return USAGE;
    }

    /**
     * A picocli parameter-exception handler that prints {@code ibtwin <command>: <message>} on one line and returns
     * 2; the root command may install it with {@code setParameterExceptionHandler(GenCommand::handleParseError)}.
     */
    public static int handleParseError(ParameterException ex, String[] args) {
        CommandLine cl = ex.getCommandLine();
        String name = cl.getCommandSpec().qualifiedName();
        if (!name.startsWith("ibtwin")) {
            name = "ibtwin " + name;
        }
        cl.getErr().println(name + ": " + ex.getMessage());
        return USAGE;
    }

    /** A usage error: the message is printed after the command name. */
    static final class UsageException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    /** What every shape shares: the output prefix, the speed, the one-line error handling. */
    abstract static class ShapeCommand extends CliCommand {

        @Option(names = {"-o", "--output"}, paramLabel = "<prefix>",
                description = "Prefix of the files to write (required).")
        String output;

        @Option(names = "--speed", paramLabel = "<speed>", defaultValue = "HDR",
                description = "Lane speed of every link: SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR "
                        + "(default: ${DEFAULT-VALUE}).")
        String speed;

        @Option(names = "--missing-links", paramLabel = "<n>",
                description = "Pull n switch-to-switch links at random, never cutting the fabric in two.")
        String missingLinks;

        @Option(names = "--extra-links", paramLabel = "<n>",
                description = "Cable n extra links between free ports of two switches, at random.")
        String extraLinks;

        @Option(names = "--fail-switch", paramLabel = "<name>",
                description = "Pull every cable of this switch (a failed switch; its hosts are cut off).")
        String failSwitch;

        @Option(names = "--seed", paramLabel = "<n>", defaultValue = "1",
                description = "Seed of the random choices of --missing-links and --extra-links "
                        + "(default: ${DEFAULT-VALUE}).")
        String seed;

        @Unmatched
        List<String> unmatched = new ArrayList<>();

        /** What the variant options changed, for the summary line. */
        private final List<String> changes = new ArrayList<>();

        /** Builds the fabric from the options; throws IllegalArgumentException for bad values. */
        abstract Fabric build();

        /** The shape with the variant options applied. */
        Fabric buildVariant() {
            Fabric f = build();
            long s;
            try {
                s = Long.parseLong(seed.trim());
            } catch (NumberFormatException e) {
                throw new UsageException("--seed must be a whole number, got '" + seed + "'");
            }
            if (failSwitch != null) {
                int pulled = Variants.failSwitch(f, failSwitch.strip());
                changes.add("switch " + failSwitch.strip() + " failed (" + pulled + " links)");
            }
            if (missingLinks != null) {
                int n = positiveInt("--missing-links", missingLinks);
                Variants.removeLinks(f, n, s);
                changes.add(n + " links missing");
            }
            if (extraLinks != null) {
                int n = positiveInt("--extra-links", extraLinks);
                Variants.addLinks(f, n, s);
                changes.add(n + " extra links");
            }
            return f;
        }

        /** What was built, one line. */
        abstract String describe(Fabric fabric);

        @Override
        public final Integer call() throws Exception {
            PrintWriter err = err();
            Fabric fabric;
            Path prefix;
            try {
                if (!unmatched.isEmpty()) {
                    throw new UsageException((unmatched.get(0).startsWith("-") ? "unknown option " : "unexpected ")
                            + "'" + unmatched.get(0) + "'");
                }
                prefix = outputPrefix();
                fabric = buildVariant();
            } catch (IllegalArgumentException e) {
                err.println(commandName() + ": " + e.getMessage());
                return USAGE;
            }
            try {
                write(fabric, prefix);
            } catch (IOException e) {
                String why = FileArgs.describe(e);
                err.println(commandName() + ": cannot write " + (why != null ? why : prefix + ": " + e.getMessage()));
                return USAGE;
            }
            spec.commandLine().getOut().println(describe(fabric) + (changes.isEmpty() ? ""
                    : " (" + String.join(", ", changes) + ")") + " -> " + prefix);
            return 0;
        }

        String commandName() {
            return "ibtwin gen " + spec.name();
        }

        LinkSpeed speed() {
            LinkSpeed s = LinkSpeed.parse(speed);
            if (s == null) {
                throw new UsageException("--speed must be one of "
                        + Arrays.stream(LinkSpeed.values()).map(LinkSpeed::label).collect(Collectors.joining(", "))
                        + ", got '" + speed + "'");
            }
            return s;
        }

        private Path outputPrefix() {
            if (output == null || output.isBlank()) {
                throw new UsageException("missing -o/--output <prefix>");
            }
            try {
                Path.of(output);
            } catch (InvalidPathException e) {
                throw new UsageException("-o/--output is not a usable path: " + e.getMessage());
            }
            // the directory must be there: a mistyped one is refused, not created
            return FileArgs.check("-o", output);
        }

        /** Calls the writer; declared broadly so it compiles whether or not the writer declares IOException. */
        private static void write(Fabric fabric, Path prefix) throws Exception {
            FabricFiles.write(fabric, prefix);
        }

        static int positiveInt(String option, String value) {
            try {
                int n = Integer.parseInt(value.trim());
                if (n >= 1) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new UsageException(option + " must be a whole number of at least 1, got '" + value + "'");
        }

        /** ", 2x (split switch ports)" when the links run narrower than 4x, else nothing. */
        static String width(Fabric f) {
            return f.links().isEmpty() || f.links().get(0).activeWidth() == org.ibtwin.model.LinkWidth.X4 ? ""
                    : ", " + f.links().get(0).activeWidth().label() + " (split switch ports)";
        }

        static String counts(Fabric f) {
            return f.cas().size() + " hosts, " + f.switches().size() + " switches, " + f.links().size() + " links";
        }
    }

    /** {@code gen fat-tree}. */
    @Command(name = "fat-tree", mixinStandardHelpOptions = true,
            description = "A 2- or 3-level folded-Clos fat tree.")
    public static final class FatTreeCommand extends ShapeCommand {
        @Option(names = "--levels", paramLabel = "2|3",
                description = "Switch levels (default: 2 when the hosts fit, else 3).")
        String levels;

        @Option(names = "--radix", paramLabel = "<n>",
                description = "Ports per switch, even (default: the speed's switch: 36 EDR, 40 HDR, 64 NDR; up to twice that "
                        + "on HDR and NDR: split ports, 2x, as an 80-port Quantum runs HDR100).")
        String radix;

        @Option(names = "--hosts", paramLabel = "<n>", description = "Hosts, one single-port CA each (required).")
        String hosts;

        @Option(names = "--blocking", paramLabel = "<b:1>", defaultValue = "1:1",
                description = "Down:up ratio at the leaves: 1:1, 2:1, 3:1 (default: ${DEFAULT-VALUE}).")
        String blocking;

        @Option(names = "--host-name", paramLabel = "<pattern>", defaultValue = FatTreeSpec.DEFAULT_HOST_NAME,
                description = "Host names, from the host number (default: node%%03d).")
        String hostName;

        @Option(names = "--guid-base", paramLabel = "<guid>",
                description = "Base of the fabric's GUIDs (default: 0x0002c90300000000).")
        String guidBase;

        @Option(names = "--rails", paramLabel = "1|2", defaultValue = "1",
                description = "Adapters per host: 2 is dual-rail, the second adapter (mlx5_1) of every host on "
                        + "another leaf of the same tree (default: ${DEFAULT-VALUE}).")
        String rails;

        public FatTreeCommand() {
        }

        /** The spec the options describe; throws IllegalArgumentException naming what is wrong. */
        public FatTreeSpec fatTreeSpec() {
            if (hosts == null) {
                throw new UsageException("missing --hosts <n>");
            }
            int n = positiveInt("--hosts", hosts) * rails();
            LinkSpeed s = speed();
            int r = radix == null ? DeviceCatalog.switchFor(s).ports() : positiveInt("--radix", radix);
            int b = FatTreeSpec.parseBlocking(blocking);
            int l;
            if (levels != null) {
                l = positiveInt("--levels", levels);
            } else {
                l = r >= 4 && r % 2 == 0 && b < r && n <= FatTreeSpec.maxHosts(2, r, b) ? 2 : 3;
            }
            long base = FatTreeSpec.DEFAULT_GUID_BASE;
            if (guidBase != null) {
                try {
                    base = Guids.parse(guidBase);
                } catch (NumberFormatException e) {
                    throw new UsageException("--guid-base must be a GUID like 0x0002c90300000000, got '"
                            + guidBase + "'");
                }
            }
            return new FatTreeSpec(l, r, n, b, s, hostName, base);
        }

        int rails() {
            int r = positiveInt("--rails", rails);
            if (r > 2) {
                throw new UsageException("--rails must be 1 or 2, got '" + rails + "'");
            }
            return r;
        }

        @Override
        Fabric build() {
            FatTreeSpec s = fatTreeSpec();
            return rails() == 1 ? FatTree.build(s) : Variants.dualRail(s.withHosts(s.hosts() / 2));
        }

        @Override
        String describe(Fabric fabric) {
            FatTreeSpec s = fatTreeSpec();
            FatTree.Plan p = FatTree.plan(s);
            return "fat-tree: " + s.levels() + " levels, radix " + s.radix() + ", " + s.blockingLabel() + ", "
                    + s.speed().label() + width(fabric) + (rails() == 2 ? ", dual-rail" : "") + ": " + counts(fabric)
                    + " (" + p.leaves() + " leaves, " + p.spines()
                    + " spines" + (p.cores() > 0 ? ", " + p.cores() + " cores in " + p.pods() + " pods" : "") + ")";
        }
    }

    /** {@code gen gpu-fat-tree}. */
    @Command(name = "gpu-fat-tree", mixinStandardHelpOptions = true,
            description = "GPU nodes (4 or 8 GPUs, one CA per NIC) on a rail-optimised fat tree in scalable units "
                    + "of radix/2 nodes (DGX SuperPOD), or on a classic fat tree.")
    public static final class GpuFatTreeCommand extends ShapeCommand {
        @Option(names = "--nodes", paramLabel = "<n>", description = "GPU nodes (required).")
        String nodes;

        @Option(names = "--gpus", paramLabel = "4|8", defaultValue = "8",
                description = "GPUs per node (default: ${DEFAULT-VALUE}).")
        String gpus;

        @Option(names = "--nics", paramLabel = "<n>",
                description = "NICs per node, dividing the GPUs (default: one per GPU).")
        String nics;

        @Option(names = "--layout", paramLabel = "rail|classic", defaultValue = "rail",
                description = "rail: NIC r of every node of a scalable unit on the unit's leaf of rail r; "
                        + "classic: a node's NICs side by side on one leaf (default: ${DEFAULT-VALUE}).")
        String layout;

        @Option(names = "--radix", paramLabel = "<n>",
                description = "Ports per switch, even (default: the speed's switch: 36 EDR, 40 HDR, 64 NDR).")
        String radix;

        @Option(names = "--host-name", paramLabel = "<pattern>", defaultValue = FatTreeSpec.DEFAULT_HOST_NAME,
                description = "Node names, from the node number (default: node%%03d).")
        String hostName;

        public GpuFatTreeCommand() {
        }

        GpuCluster.Spec clusterSpec() {
            if (nodes == null) {
                throw new UsageException("missing --nodes <n>");
            }
            int n = positiveInt("--nodes", nodes);
            int g = positiveInt("--gpus", gpus);
            int k = nics == null ? g : positiveInt("--nics", nics);
            LinkSpeed s = speed();
            int r = radix == null ? DeviceCatalog.switchFor(s).ports() : positiveInt("--radix", radix);
            boolean rails = switch (layout.trim().toLowerCase(java.util.Locale.ROOT)) {
                case "rail" -> true;
                case "classic" -> false;
                default -> throw new UsageException("--layout must be rail or classic, got '" + layout + "'");
            };
            return new GpuCluster.Spec(n, g, k, r, s, rails, hostName);
        }

        @Override
        Fabric build() {
            return GpuCluster.build(clusterSpec());
        }

        @Override
        String describe(Fabric fabric) {
            GpuCluster.Spec c = clusterSpec();
            return "gpu-fat-tree: " + c.nodes() + " nodes of " + c.gpus() + " GPUs and " + c.nics() + " NIC"
                    + (c.nics() == 1 ? "" : "s") + ", " + (c.rails() ? "rail-optimised in " + c.units()
                    + " scalable unit" + (c.units() == 1 ? "" : "s") + " of " + c.unitSize() : "classic")
                    + ", radix " + c.radix() + ", " + c.speed().label() + ": " + counts(fabric);
        }
    }

    /** {@code gen back-to-back}. */
    @Command(name = "back-to-back", mixinStandardHelpOptions = true,
            description = "Two hosts joined by one cable, no switch.")
    public static final class BackToBackCommand extends ShapeCommand {
        public BackToBackCommand() {
        }

        @Override
        Fabric build() {
            return Shapes.backToBack(speed());
        }

        @Override
        String describe(Fabric fabric) {
            return "back-to-back, " + speed().label() + ": " + counts(fabric);
        }
    }

    /** {@code gen single-switch}. */
    @Command(name = "single-switch", mixinStandardHelpOptions = true,
            description = "One switch with hosts on its first ports.")
    public static final class SingleSwitchCommand extends ShapeCommand {
        @Option(names = "--hosts", paramLabel = "<n>", description = "Hosts (required).")
        String hosts;

        @Option(names = "--radix", paramLabel = "<n>",
                description = "Ports of the switch (default: the speed's switch: 36 EDR, 40 HDR, 64 NDR; up to twice that on "
                        + "HDR and NDR: split ports, 2x).")
        String radix;

        public SingleSwitchCommand() {
        }

        @Override
        Fabric build() {
            if (hosts == null) {
                throw new UsageException("missing --hosts <n>");
            }
            int n = positiveInt("--hosts", hosts);
            LinkSpeed s = speed();
            int r = radix == null ? DeviceCatalog.switchFor(s).ports() : positiveInt("--radix", radix);
            return Shapes.singleSwitch(n, r, s);
        }

        @Override
        String describe(Fabric fabric) {
            return "single-switch, " + speed().label() + width(fabric) + ": " + counts(fabric);
        }
    }

    /** What the direct networks share: hosts per switch, radix. */
    abstract static class DirectCommand extends ShapeCommand {
        @Option(names = "--hosts-per-switch", paramLabel = "<n>", defaultValue = "1",
                description = "Hosts on every switch (default: ${DEFAULT-VALUE}).")
        String hostsPerSwitch;

        @Option(names = "--radix", paramLabel = "<n>",
                description = "Ports per switch (default: the speed's switch: 36 EDR, 40 HDR, 64 NDR).")
        String radix;

        int perSwitch() {
            return positiveInt("--hosts-per-switch", hostsPerSwitch);
        }

        int radixOrDefault() {
            return radix == null ? 0 : positiveInt("--radix", radix);
        }

        /** "4x4x4" as {4, 4, 4}. */
        static int[] dims(String option, String value) {
            if (value == null) {
                throw new UsageException("missing " + option + " <x>x<y>[x<z>]");
            }
            String[] parts = value.strip().toLowerCase(java.util.Locale.ROOT).split("x", -1);
            int[] d = new int[parts.length];
            for (int i = 0; i < parts.length; i++) {
                try {
                    d[i] = Integer.parseInt(parts[i].strip());
                } catch (NumberFormatException e) {
                    d[i] = 0;
                }
                if (d[i] < 1) {
                    throw new UsageException(option + " must be switch counts joined by x, like 8x8 or 4x4x4, got '"
                            + value + "'");
                }
            }
            return d;
        }

        static String dimsLabel(int[] d) {
            return Arrays.stream(d).mapToObj(Integer::toString).collect(Collectors.joining("x"));
        }
    }

    /** A torus or a mesh: switches along each of up to three dimensions, with or without wrap-around links. */
    abstract static class GridCommand extends DirectCommand {
        @Option(names = "--dims", paramLabel = "<x>x<y>[x<z>]", description = "Switches along each dimension "
                + "(required): 8x8, 4x4x4.")
        String dims;

        private final String kind;
        private final boolean wrap;

        GridCommand(String kind, boolean wrap) {
            this.kind = kind;
            this.wrap = wrap;
        }

        @Override
        Fabric build() {
            return Direct.torus(dims("--dims", dims), wrap, perSwitch(), radixOrDefault(), speed());
        }

        @Override
        String describe(Fabric fabric) {
            return kind + " " + dimsLabel(dims("--dims", dims)) + ", " + perSwitch()
                    + (perSwitch() == 1 ? " host" : " hosts") + " a switch, " + speed().label() + width(fabric) + ": "
                    + counts(fabric);
        }
    }

    /** {@code gen torus}. */
    @Command(name = "torus", mixinStandardHelpOptions = true,
            description = "A 1-, 2- or 3-D torus: x+ on port 1, x- 2, y+ 3, y- 4, z+ 5, z- 6, hosts after.")
    public static final class TorusCommand extends GridCommand {
        public TorusCommand() {
            super("torus", true);
        }
    }

    /** {@code gen mesh}: a torus without its wrap-around links. */
    @Command(name = "mesh", mixinStandardHelpOptions = true,
            description = "A 1-, 2- or 3-D mesh (a torus without wrap-around links), the torus's port order.")
    public static final class MeshCommand extends GridCommand {
        public MeshCommand() {
            super("mesh", false);
        }
    }

    /** {@code gen hypercube}. */
    @Command(name = "hypercube", mixinStandardHelpOptions = true,
            description = "A hypercube of 2^dim switches, port d+1 across dimension d, hosts after.")
    public static final class HypercubeCommand extends DirectCommand {
        @Option(names = "--dim", paramLabel = "<n>", description = "Dimensions (required): 2^n switches.")
        String dim;

        int dimension() {
            if (dim == null) {
                throw new UsageException("missing --dim <n>");
            }
            return positiveInt("--dim", dim);
        }

        @Override
        Fabric build() {
            return Direct.hypercube(dimension(), perSwitch(), radixOrDefault(), speed());
        }

        @Override
        String describe(Fabric fabric) {
            return "hypercube of dimension " + dimension() + ", " + perSwitch() + (perSwitch() == 1 ? " host" : " hosts") + " a switch, "
                    + speed().label() + width(fabric) + ": " + counts(fabric);
        }
    }

    /** {@code gen dragonfly}. */
    @Command(name = "dragonfly", mixinStandardHelpOptions = true,
            description = "A dragonfly: groups of all-to-all routers joined by global links. Balanced (canonical) "
                    + "when routers = 2 x hosts = 2 x global and groups = routers x global + 1, the defaults.")
    public static final class DragonflyCommand extends ShapeCommand {
        @Option(names = {"-a", "--routers"}, paramLabel = "<a>", defaultValue = "4",
                description = "Routers a group (default: ${DEFAULT-VALUE}).")
        String routers;

        @Option(names = {"-p", "--hosts-per-router"}, paramLabel = "<p>",
                description = "Hosts on every router (default: routers/2).")
        String hostsPerRouter;

        @Option(names = {"-H", "--global"}, paramLabel = "<h>",
                description = "Global links a router (default: routers/2).")
        String global;

        @Option(names = {"-g", "--groups"}, paramLabel = "<g>",
                description = "Groups (default: routers x global + 1, every pair of groups joined once).")
        String groups;

        @Option(names = "--arrangement", paramLabel = "consecutive|palmtree", defaultValue = "consecutive",
                description = "Global links: consecutive (absolute) or palmtree (relative) (default: "
                        + "${DEFAULT-VALUE}).")
        String arrangement;

        @Option(names = "--radix", paramLabel = "<n>",
                description = "Ports per router (default: the speed's switch).")
        String radix;

        int a() {
            return positiveInt("--routers", routers);
        }

        int p() {
            return hostsPerRouter == null ? Math.max(1, a() / 2) : positiveInt("--hosts-per-router", hostsPerRouter);
        }

        int h() {
            return global == null ? Math.max(1, a() / 2) : positiveInt("--global", global);
        }

        int g() {
            return groups == null ? a() * h() + 1 : positiveInt("--groups", groups);
        }

        Direct.Arrangement arr() {
            try {
                return Direct.Arrangement.parse(arrangement);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--" + e.getMessage());
            }
        }

        @Override
        Fabric build() {
            return Direct.dragonfly(g(), a(), p(), h(), arr(), radix == null ? 0 : positiveInt("--radix", radix),
                    speed());
        }

        @Override
        String describe(Fabric fabric) {
            return "dragonfly: " + g() + " groups of " + a() + " routers, " + p() + " hosts and " + h()
                    + " global links a router, " + arr().label() + ", " + speed().label() + width(fabric) + ": "
                    + counts(fabric);
        }
    }

    /** {@code gen hyperx}. */
    @Command(name = "hyperx", mixinStandardHelpOptions = true,
            description = "HyperX (a flattened butterfly): a grid of switches, each joined to every switch that "
                    + "differs from it in one coordinate.")
    public static final class HyperxCommand extends DirectCommand {
        @Option(names = "--dims", paramLabel = "<x>x<y>[x<z>]", description = "Switches along each dimension "
                + "(required): 8x8, 4x4x4.")
        String dims;

        @Override
        Fabric build() {
            return Direct.hyperx(dims("--dims", dims), perSwitch(), radixOrDefault(), speed());
        }

        @Override
        String describe(Fabric fabric) {
            return "hyperx " + dimsLabel(dims("--dims", dims)) + ", " + perSwitch() + (perSwitch() == 1 ? " host" : " hosts") + " a switch, "
                    + speed().label() + width(fabric) + ": " + counts(fabric);
        }
    }
}
