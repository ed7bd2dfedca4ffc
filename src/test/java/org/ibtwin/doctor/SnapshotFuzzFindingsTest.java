package org.ibtwin.doctor;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.ibtwin.format.FormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the reader fuzzing found: a snapshot whose link lacked its ends made {@code snapshot diff} throw an NPE. */
class SnapshotFuzzFindingsTest {
    @Test
    void aLinkWithoutItsEndsIsRefusedByTheReader(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("s.json");
        Files.writeString(f, "{\"format\": \"ibtwin-snapshot/1\", \"links\": [{\"a\": \"leaf02/33\", \"b\": "
                + "\"spine01/17\", \"bKey\": \"0x0002c90380000003/17\", \"rate\": \"4xDDR\"}]}\n");
        assertThatThrownBy(() -> Snapshot.read(f)).isInstanceOf(FormatException.class).hasMessage(f
                + ": not an ibtwin snapshot: link 1 lacks one of \"a\", \"b\", \"aKey\", \"bKey\"");
        Files.writeString(f, "{\"format\": \"ibtwin-snapshot/1\", \"nodes\": [{\"name\": \"leaf02\"}]}\n");
        assertThatThrownBy(() -> Snapshot.read(f)).hasMessage(f + ": not an ibtwin snapshot: node 1 has no "
                + "\"guid\"");
    }
}
