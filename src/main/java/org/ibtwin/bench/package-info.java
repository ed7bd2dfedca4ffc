/**
 * Benchmarks: commands that print figures, and the harness they share. {@link org.ibtwin.bench.Jvm} reads this
 * JVM (heap with or without full collections first, heap peaks, GC, bytes allocated, process CPU);
 * {@link org.ibtwin.bench.Processes} the programs a bench starts (CPU and peak RSS, stopping only the process given,
 * finding opensm, ibsim and libumad2sim); {@link org.ibtwin.bench.OpensmHarness} runs real ibsim and real OpenSM
 * (a size's fat tree, ibsim on a free port range with its limits raised, one {@code opensm -o} watched to SUBNET UP,
 * its log and guid2lid read back); {@link org.ibtwin.bench.FatTreeShape} is the {@code --levels/--radix/--hosts}
 * option set. The benches here need nothing of the command line; those that drive command-line code (the perf front
 * end, the web view, the fuzzers, the routing tables' dump reader, a twin run as {@code ibtwin sim}) live in
 * {@code cli} over this harness, and {@code cli.BenchCommand} lists both.
 *
 * <p>Beside {@code cli} in the layering: only {@code cli} uses this package, and it uses nothing of {@code cli}'s
 * or {@code web}'s ({@code LayeringTest}). Figures are measured here, never in a timed unit test.
 */
package org.ibtwin.bench;
