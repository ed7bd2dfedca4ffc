package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ibtwin.model.PcieGen;
import org.ibtwin.perf.Pcie;
import org.junit.jupiter.api.Test;

/** One truth per figure: the commands that print a slot's usable PCIe rate print one function's number. */
class OneFigureTest {
    private static final Pattern USABLE = Pattern.compile("([0-9]+\\.[0-9]) Gb/s usable");

    @Test
    void topoDoctorAndIbWriteBwPrintTheSameUsableFigureForNode017() {
        String expected = Pcie.gbps(Pcie.usableGbps(PcieGen.GEN3, 8));
        assertThat(expected).isEqualTo("55.5");

        String topo = line(run(0, "topo"), "node017 ");
        assertThat(topo).contains("Gen3 x8").contains("63.0 Gb/s raw");

        String doctor = line(run(1, "doctor"), "HCA in a PCIe Gen3 x8 slot");
        String doctorEvidence = line(run(1, "doctor"), "node017: PCIe Gen3 x8 carries");
        assertThat(doctorEvidence).contains("63.0 Gb/s raw");

        String why = line(run(0, "ib_write_bw", "node001", "node017", "--report_gbits", "--why"),
                "# ibtwin: limited by PCIe Gen3 x8 at node017");
        // the figure for the operation is smaller: TLP headers of 64 KiB writes (P06-P08), named apart
        assertThat(why).contains("≈ 51.4 Gb/s of payload after TLP headers");

        assertThat(usable(topo)).isEqualTo(expected);
        assertThat(usable(doctor)).isEqualTo(expected);
        assertThat(usable(doctorEvidence)).isEqualTo(expected);
        assertThat(usable(why)).isEqualTo(expected);
    }

    private static String run(int code, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(Cli.execute(out, err, args)).as(String.join(" ", args) + ": " + err).isEqualTo(code);
        return out.toString();
    }

    private static String line(String text, String containing) {
        for (String l : text.split("\n")) {
            if (l.contains(containing)) {
                return l;
            }
        }
        throw new AssertionError("no line with \"" + containing + "\" in:\n" + text);
    }

    private static String usable(String line) {
        Matcher m = USABLE.matcher(line);
        assertThat(m.find()).as(line).isTrue();
        String first = m.group(1);
        while (m.find()) {
            assertThat(m.group(1)).as(line).isEqualTo(first);
        }
        return first;
    }
}
