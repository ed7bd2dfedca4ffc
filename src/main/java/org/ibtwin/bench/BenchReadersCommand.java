package org.ibtwin.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Sources;
import org.ibtwin.format.FabricDescription;
import org.ibtwin.format.FormatException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ibtwin bench readers}: how fast the readers get through input that is no input of theirs, the kind a user
 * hands them by mistake: {@code doctor --from DIR} over a long "key: value" file no tool wrote (file recognition
 * must be linear), and a fabric description that is one huge line (refused before SnakeYAML sees it).
 */
@Command(name = "readers", mixinStandardHelpOptions = true,
        description = "Time doctor --from over a long unrecognised file and the refusal of an oversized YAML.")
public final class BenchReadersCommand extends Bench {

    @Option(names = "--lines", defaultValue = "100000",
            description = "Lines of the \"key: value\" file (default: ${DEFAULT-VALUE}).")
    int lines;

    @Option(names = "--yaml-mb", defaultValue = "5,2", split = ",", description = "Sizes of one-line YAML files in "
            + "MB, comma separated (default: ${DEFAULT-VALUE}: over SnakeYAML's 3 MiB, and under it).")
    int[] yamlMb;

    @Option(names = "--rounds", defaultValue = "3", description = "Measured rounds (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Override
    public Integer call() throws IOException {
        if (lines < 1 || rounds < 1 || Arrays.stream(yamlMb).anyMatch(mb -> mb < 1)) {
            throw new IllegalArgumentException("--lines, --yaml-mb and --rounds must be at least 1");
        }
        PrintWriter out = spec.commandLine().getOut();
        Path dir = Files.createTempDirectory("ibtwin-bench-readers");
        try {
            Path from = Files.createDirectories(dir.resolve("from"));
            StringBuilder kv = new StringBuilder(lines * 24);
            for (int i = 0; i < lines; i++) {
                kv.append("setting").append(i).append(": value ").append(i).append('\n');
            }
            Files.writeString(from.resolve("settings.txt"), kv, StandardCharsets.UTF_8);
            long[] ns = new long[rounds + 1];
            int ignored = 0;
            for (int r = 0; r <= rounds; r++) {          // round 0 warms up
                long t0 = System.nanoTime();
                FabricState s = Sources.open(null, from, null, null, line -> { });
                ns[r] = System.nanoTime() - t0;
                ignored = s.ignored().size();
            }
            out.printf(Locale.ROOT, "doctor --from: a %,d-line \"key: value\" file (%,d bytes): %s (best), %s "
                    + "(median); %d file%s ignored%n", lines, kv.length(), ms(best(ns)), ms(median(ns)), ignored,
                    ignored == 1 ? "" : "s");

            for (int mb : yamlMb) {
                Path yaml = dir.resolve("huge.yaml");
                byte[] line = new byte[mb * 1_000_000];
                Arrays.fill(line, (byte) 'a');
                Files.write(yaml, line);
                String why = "";
                for (int r = 0; r <= rounds; r++) {
                    long t0 = System.nanoTime();
                    try {
                        FabricDescription.read(yaml);
                        why = "accepted";
                    } catch (FormatException e) {
                        why = e.getMessage().replace(yaml.toString(), "huge.yaml");
                    }
                    ns[r] = System.nanoTime() - t0;
                }
                out.printf(Locale.ROOT, "fabric description: one line of %,d MB: %s (best), %s (median): %s%n", mb,
                        ms(best(ns)), ms(median(ns)), why);
            }
            out.flush();
            return 0;
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /** The best of the measured rounds (round 0 was the warm-up). */
    private static long best(long[] ns) {
        return Arrays.stream(ns, 1, ns.length).min().orElseThrow();
    }

    private static long median(long[] ns) {
        long[] m = Arrays.copyOfRange(ns, 1, ns.length);
        Arrays.sort(m);
        return m[m.length / 2];
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
    }
}
