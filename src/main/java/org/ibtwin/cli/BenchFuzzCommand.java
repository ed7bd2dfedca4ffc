package org.ibtwin.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin bench fuzz}: the project's fuzzing, with figures. Three parts, each deterministic by {@code --seed}:
 * {@code mads} ({@link MadFuzz}: random and mutated MADs and control messages into the twin over its ibsim endpoint,
 * on the default fabric and a generated fat tree, half the MADs each, valid probes checked against the twin),
 * {@code receivers} ({@link ReceiverFuzz}: a fake ibsim server answering ibtwin's SM and diag tools with garbage) and
 * {@code readers} ({@link ReaderFuzz}: a malformed-file corpus for every text reader). Exit 0 when every part is
 * clean; 1 with each finding (seed and input in hex) otherwise.
 */
@Command(name = "fuzz", mixinStandardHelpOptions = true,
        description = "Fuzz the twin's ibsim endpoint, the SM's and tools' receive paths and every file reader.",
        footer = {"", "Parts: mads (--mads datagrams into two fabrics' twins, probes checked), receivers (a server "
            + "answering garbage), readers (a malformed-file corpus). A finding prints its seed and input."})
public final class BenchFuzzCommand extends CliCommand {

    @Option(names = "--mads", defaultValue = "1000000",
            description = "MAD datagrams in all, half on each fabric (default: ${DEFAULT-VALUE}).")
    long mads;

    @Option(names = "--seed", defaultValue = "1", description = "The seed every random choice comes from "
            + "(default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--port", defaultValue = "0", description = "Control port of the twin's ibsim endpoint; the "
            + "next ten are its slots (default: any free range).")
    int port;

    @Option(names = "--parts", split = ",", defaultValue = "mads,receivers,readers",
            description = "Which parts to run (default: ${DEFAULT-VALUE}).")
    List<String> parts;

    @Option(names = "--cases", defaultValue = "200",
            description = "Runs of the SM and the tools against the garbage-answering server (default: "
                    + "${DEFAULT-VALUE}).")
    int cases;

    @Option(names = "--commands", split = ",", paramLabel = "<command>",
            description = "The receivers part runs only these commands (default: sm, ibnetdiscover, iblinkinfo, "
                    + "ibswitches, smpquery, perfquery, saquery, sminfo, ibstat, ibroute, ibtracert, ibaddr, "
                    + "ibportstate, ibqueryerrors).")
    List<String> commands = List.of();

    @Option(names = "--files", defaultValue = "40",
            description = "Broken files per reader (default: ${DEFAULT-VALUE}).")
    int files;

    @Option(names = "--json", description = "Print the figures as JSON.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = out();
        for (String p : parts) {
            if (!List.of("mads", "receivers", "readers").contains(p)) {
                throw new IllegalArgumentException("--parts: unknown part \"" + p + "\" (mads, receivers, readers)");
            }
        }
        if (mads < 0 || cases < 0 || files < 0) {
            throw new IllegalArgumentException("--mads, --cases and --files cannot be negative");
        }
        if (port != 0 && (port < 1 || port > 65524)) {
            throw new IllegalArgumentException("--port must be in 1..65524 (the ten after it are used too)");
        }
        boolean clean = true;
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("seed", seed);
        if (parts.contains("mads")) {
            List<Object> runs = new ArrayList<>();
            Fabric tree = FatTree.build(FatTreeSpec.of(2, 16, 96));
            Object[][] fabrics = {{"default fabric", FabricFiles.loadDefault()},
                {"fat tree (2 levels, radix 16, 96 hosts)", tree}};
            for (int i = 0; i < fabrics.length; i++) {
                long n = mads / fabrics.length + (i == 0 ? mads % fabrics.length : 0);
                MadFuzz.Result r = MadFuzz.run((String) fabrics[i][0], (Fabric) fabrics[i][1], n, seed + i, port);
                clean &= r.clean();
                runs.add(r);
                if (!json) {
                    print(out, r, seed + i);
                }
            }
            all.put("mads", runs);
        }
        if (parts.contains("receivers")) {
            ReceiverFuzz.Result r = ReceiverFuzz.run(cases, seed, ReceiverFuzz.commands(commands));
            clean &= r.clean();
            all.put("receivers", r);
            if (!json) {
                out.printf(Locale.ROOT, "receivers: seed %d: %d runs of ibtwin's SM and tools against a server "
                        + "answering garbage in %.1f s: %d ended with their own error lines, %d findings: %s%n", seed,
                        r.cases(), r.seconds(), r.exitedClean(), r.findings(), r.clean() ? "clean" : "FINDINGS");
                for (String p : r.problems().subList(0, Math.min(20, r.problems().size()))) {
                    out.println("  " + p);
                }
                out.flush();
            }
        }
        if (parts.contains("readers")) {
            ReaderFuzz.Result r = ReaderFuzz.run(files, seed);
            clean &= r.clean();
            all.put("readers", r);
            if (!json) {
                out.printf(Locale.ROOT, "readers: seed %d: %d readers, %,d broken files in %.1f s: %,d accepted, "
                        + "%,d refused with file:line, %d findings: %s%n", seed, r.readers(), r.files(), r.seconds(),
                        r.accepted(), r.rejected(), r.findings(), r.clean() ? "clean" : "FINDINGS");
                for (String p : r.problems().subList(0, Math.min(20, r.problems().size()))) {
                    out.println("  " + p);
                }
            }
        }
        if (json) {
            out.print(Json.write(all));
        }
        out.flush();
        return clean ? 0 : 1;
    }

    private static void print(PrintWriter out, MadFuzz.Result r, long seed) {
        out.printf(Locale.ROOT, "mads: %s, seed %d: %,d datagrams and %,d control messages in %.1f s (%,.0f MADs/s)"
                + "%n", r.fabric(), seed, r.mads(), r.controls(), r.seconds(), r.madsPerSecond());
        out.printf(Locale.ROOT, "  crashes %d, hangs %d, wrong answers %d of %,d probes (p50 %.3f ms, p99 %.3f ms; "
                + "SMA/PMA alone p99 %.3f ms; before the flood p50 %.3f ms, p99 %.3f ms); CPU after %.2f cores; "
                + "slots held %d: %s%n", r.faults(), r.hangs(), r.wrong(), r.probes(), r.p50Millis(), r.p99Millis(),
                r.agentP99Millis(), r.quietP50Millis(), r.quietP99Millis(), r.cpuAfter(), r.slotsHeld(),
                r.clean() ? "clean" : "FINDINGS");
        if (r.firstFault() != null) {
            out.println("  first crash: " + r.firstFault());
        }
        for (String p : r.problems().subList(0, Math.min(10, r.problems().size()))) {
            out.println("  " + p);
        }
        out.flush();
    }
}
