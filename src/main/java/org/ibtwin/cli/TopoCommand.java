package org.ibtwin.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.format.TopologySummary;
import org.ibtwin.model.Fabric;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ibtwin topo}: read a fabric file and print what an admin checks at a glance. */
@Command(name = "topo", mixinStandardHelpOptions = true,
        description = "Summarise a fabric: switches, CAs, links by width and speed, degraded links, PCIe slots, IPoIB.",
        footer = {"", "<fabric> is an ibnetdiscover dump, an ibsim net file or a fabric description (YAML);",
            "without it, or with 'default', the built-in default fabric is used."})
public final class TopoCommand extends CliCommand {

    @Parameters(index = "0", arity = "0..1", paramLabel = "<fabric>", description = "Fabric file (default: built-in).")
    String fabric;

    @Option(names = "--json", description = "Print JSON instead of text.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        Fabric f = FabricFiles.load(fabric);
        TopologySummary s = TopologySummary.of(f, fabric == null ? "default (built-in)" : fabric);
        if (json) {
            ObjectMapper om = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
            spec.commandLine().getOut().println(om.writeValueAsString(s.toJson()));
        } else {
            spec.commandLine().getOut().print(s.toText());
        }
        spec.commandLine().getOut().flush();
        return 0;
    }
}
