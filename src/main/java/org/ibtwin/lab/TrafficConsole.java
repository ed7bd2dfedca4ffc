package org.ibtwin.lab;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ibtwin.sim.Console;

/**
 * The console's {@code traffic} command over a {@link TrafficEngine}:
 * <ul>
 * <li>{@code traffic start PATTERN [ARGS] [--size BYTES] [--speed N] [--seconds S]}: starts the pattern; with
 * {@code --seconds} runs that many simulated seconds at once and stops, else the engine's clock runs on, {@code N}
 * simulated seconds per wall second (default 1);</li>
 * <li>{@code traffic stop}; {@code traffic status [all]} (the flows, the first 20 unless {@code all}, rates,
 * simulated time, the ports that wait and the events); {@code traffic run S} (S simulated seconds now).</li>
 * </ul>
 */
public final class TrafficConsole implements Console.Command {
    private static final int SHOWN = 20;
    private final TrafficEngine engine;

    public TrafficConsole(TrafficEngine engine) {
        this.engine = engine;
    }

    @Override
    public List<String> help() {
        return List.of(
                "  traffic start PATTERN [--size B] [--speed N] [--seconds S]   flows over the LFTs, counters moving;",
                "                                      PATTERN: " + TrafficPattern.USAGE,
                "  traffic stop | traffic status [all] | traffic run <seconds>   (simulated seconds)");
    }

    @Override
    public void run(List<String> args, PrintWriter out) {
        if (args.isEmpty()) {
            throw new IllegalArgumentException("usage: traffic start PATTERN ... | stop | status [all] | run S");
        }
        String sub = args.getFirst().toLowerCase(Locale.ROOT);
        List<String> rest = args.subList(1, args.size());
        switch (sub) {
            case "start" -> start(rest, out);
            case "stop" -> {
                engine.halt();
                engine.stop();
                out.print(engine.status().text(SHOWN));
            }
            case "status" -> {
                boolean all = !rest.isEmpty() && rest.getFirst().equalsIgnoreCase("all");
                out.print(engine.status().text(all ? Integer.MAX_VALUE : SHOWN));
            }
            case "run" -> {
                if (rest.size() != 1) {
                    throw new IllegalArgumentException("usage: traffic run <simulated seconds>");
                }
                engine.advance(seconds(rest.getFirst(), "traffic run"));
                out.print(engine.status().text(SHOWN));
            }
            default -> throw new IllegalArgumentException("unknown traffic command \"" + args.getFirst()
                    + "\": start, stop, status, run");
        }
    }

    private void start(List<String> args, PrintWriter out) {
        List<String> words = new ArrayList<>();
        long size = TrafficEngine.DEFAULT_SIZE;
        double speed = 1;
        Double seconds = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.startsWith("--")) {
                if (i + 1 >= args.size()) {
                    throw new IllegalArgumentException(a + " needs a value");
                }
                String v = args.get(++i);
                switch (a) {
                    case "--size" -> size = (long) number(v, "--size");
                    case "--speed" -> speed = number(v, "--speed");
                    case "--seconds" -> seconds = seconds(v, "--seconds");
                    default -> throw new IllegalArgumentException("unknown option " + a
                            + " (--size, --speed, --seconds)");
                }
            } else {
                words.add(a);
            }
        }
        if (!(speed > 0) || speed > 1e6) {
            throw new IllegalArgumentException("--speed must be > 0 and at most 1e6");
        }
        TrafficPattern p = TrafficPattern.parse(words);
        engine.halt();
        engine.start(p, size);
        if (seconds != null) {
            engine.advance(seconds);
            engine.stop();
        } else {
            engine.run(speed);
        }
        out.print(engine.status().text(SHOWN));
    }

    private static double number(String v, String what) {
        try {
            double d = Double.parseDouble(v);
            if (!(d > 0) || Double.isInfinite(d)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + ": \"" + v + "\" is not a positive number");
        }
    }

    private static double seconds(String v, String what) {
        double d = number(v, what);
        if (d > 1e9) {
            throw new IllegalArgumentException(what + ": at most 1e9 simulated seconds");
        }
        return d;
    }
}
