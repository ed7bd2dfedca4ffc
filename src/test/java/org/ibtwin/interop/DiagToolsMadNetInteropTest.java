package org.ibtwin.interop;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DiagToolsInteropTest}'s comparisons on {@code mad/mad.net} (a base-port-0 switch, a 2-port CA, mixed widths
 * and speeds), and ibportstate's changes on two ibsims of it.
 */
class DiagToolsMadNetInteropTest extends DiagToolsInteropTest {
    @Test
    void madNet(@TempDir Path dir) throws Exception {
        Path net = dir.resolve("mad.net");
        try (var in = getClass().getResourceAsStream("/mad/mad.net")) {
            Files.copy(in, net);
        }
        run(net, dir, "mad.net", true);
    }
}
