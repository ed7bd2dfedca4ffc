package org.ibtwin.interop;

import java.nio.file.Path;
import org.ibtwin.format.TopologyWriter;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link DiagToolsInteropTest}'s comparisons on a 2-level fat tree written by our TopologyWriter. */
class DiagToolsFatTreeInteropTest extends DiagToolsInteropTest {
    @Test
    void fatTree(@TempDir Path dir) throws Exception {
        Path net = dir.resolve("fat.topo");
        TopologyWriter.write(FatTree.build(FatTreeSpec.of(2, 8, 8)), net);
        run(net, dir, "fat tree 2x8x8", false);
    }
}
