package org.ibtwin.format;

import java.io.IOException;
import java.nio.file.Path;
import org.ibtwin.model.Fabric;

/**
 * PLACEHOLDER from branch gen so that {@code org.ibtwin.cli.GenCommand} compiles: the real writers replace this
 * file.
 */
public final class FabricFiles {
    private FabricFiles() {
    }

    /** Writes every file of a fabric under {@code prefix}. */
    public static void write(Fabric fabric, Path prefix) throws IOException {
        throw new UnsupportedOperationException("FabricFiles.write is not written yet (placeholder)");
    }
}
