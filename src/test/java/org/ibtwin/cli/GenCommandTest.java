package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.LinkSpeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

class GenCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private CommandLine commandLine() {
        CommandLine cl = new CommandLine(new GenCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl;
    }

    private int run(String... args) {
        return commandLine().execute(args);
    }

    private FatTreeSpec parseFatTree(String... args) {
        CommandLine cl = commandLine();
        String[] all = new String[args.length + 1];
        all[0] = "fat-tree";
        System.arraycopy(args, 0, all, 1, args.length);
        cl.parseArgs(all);
        return ((GenCommand.FatTreeCommand) cl.getSubcommands().get("fat-tree").getCommand()).fatTreeSpec();
    }

    @Test
    void fatTreeOptionsMakeTheSpec() {
        FatTreeSpec spec = parseFatTree("--levels", "3", "--radix", "8", "--hosts", "64", "--blocking", "2:1",
                "--speed", "ndr", "--host-name", "gpu%04d", "--guid-base", "0x7cfe900300000000", "-o", "out/f");
        assertThat(spec).isEqualTo(new FatTreeSpec(3, 8, 64, 2, LinkSpeed.NDR, "gpu%04d", 0x7cfe900300000000L));
    }

    @Test
    void fatTreeDefaults() {
        assertThat(parseFatTree("--hosts", "64")).isEqualTo(FatTreeSpec.of(2, 40, 64));
        // radix follows the speed's switch; levels grow to 3 when 2 do not hold the hosts
        assertThat(parseFatTree("--hosts", "801")).isEqualTo(FatTreeSpec.of(3, 40, 801));
        assertThat(parseFatTree("--hosts", "2048", "--speed", "NDR"))
                .isEqualTo(FatTreeSpec.of(2, 64, 2048).withSpeed(LinkSpeed.NDR));
        assertThat(parseFatTree("--hosts", "100", "--speed", "EDR").radix()).isEqualTo(36);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "fat-tree -o f                                   | fat-tree: missing --hosts <n>",
        "fat-tree --hosts 8                              | fat-tree: missing -o/--output <prefix>",
        "fat-tree --hosts x -o f                         | fat-tree: --hosts must be a whole number",
        "fat-tree --hosts 0 -o f                         | fat-tree: --hosts must be a whole number",
        "fat-tree --hosts 8 --radix 41 -o f              | fat-tree: radix must be an even number",
        "fat-tree --hosts 8 --levels 4 -o f              | fat-tree: levels must be 2 or 3",
        "fat-tree --hosts 801 --levels 2 -o f            | fat-tree: hosts: 801 do not fit",
        "fat-tree --hosts 8 --blocking 1:2 -o f          | fat-tree: blocking must be down:up",
        "fat-tree --hosts 8 --speed fast -o f            | fat-tree: --speed must be one of SDR, DDR",
        "fat-tree --hosts 8 --speed XDR -o f             | fat-tree: speed: the device catalog has no switch",
        "fat-tree --hosts 8 --host-name node -o f        | fat-tree: hostNamePattern must contain",
        "fat-tree --hosts 8 --guid-base zz -o f          | fat-tree: --guid-base must be a GUID",
        "fat-tree --hosts 8 --frobnicate -o f            | fat-tree: unknown option '--frobnicate'",
        "fat-tree --hosts 8 extra -o f                   | fat-tree: unexpected 'extra'",
        "single-switch -o f                              | single-switch: missing --hosts <n>",
        "single-switch --hosts 41 -o f                   | single-switch: hosts must be 1..radix (40)",
        "back-to-back                                    | back-to-back: missing -o/--output <prefix>",
        "back-to-back --speed XDR -o f                   | back-to-back: speed: the device catalog has no"})
    void usageErrorsPrintOneLineAndExit2(String args, String message) {
        int code = run(args.trim().split("\\s+"));
        assertThat(code).isEqualTo(2);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString()).startsWith("ibtwin gen " + message.trim());
        assertThat(err.toString().strip()).doesNotContain("\n").doesNotContain("Exception");
    }

    @Test
    void genWithoutAShapeIsAUsageError() {
        assertThat(run()).isEqualTo(2);
        assertThat(err.toString().strip()).isEqualTo("ibtwin gen: name a shape: fat-tree, back-to-back, single-switch, gpu-fat-tree, torus, mesh, hypercube, dragonfly or hyperx");
    }

    @Test
    void parseErrorHandlerGivesOneLine() {
        CommandLine cl = commandLine();
        cl.setParameterExceptionHandler(GenCommand::handleParseError);
        assertThat(cl.execute("fat-tree", "--hosts")).isEqualTo(2);
        assertThat(err.toString().strip()).startsWith("ibtwin gen fat-tree: ").doesNotContain("\n")
                .contains("--hosts");
    }

    @Test
    void helpShowsTheOptions() {
        assertThat(run("fat-tree", "--help")).isZero();
        // picocli wraps long descriptions: read them unwrapped
        assertThat(out.toString().replaceAll("\n\\s+", "")).contains("--levels", "--radix", "--hosts", "--blocking",
                "--speed",
                "--host-name", "node%03d", "--output");
    }
}
