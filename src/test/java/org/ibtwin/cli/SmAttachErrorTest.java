package org.ibtwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code ibtwin sm} where nothing answers: one line, naming the ibsim once. */
@Timeout(30)
class SmAttachErrorTest {
    @Test
    void nothingListeningIsOneLineNamingTheIbsimOnce() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = Cli.execute(out, err, "sm", "-o", "--ibsim", "127.0.0.1:18200");
        assertThat(err.toString()).isEqualTo("ibtwin sm: cannot attach as SM to ibsim at 127.0.0.1:18200: no ibsim "
                + "listening at 127.0.0.1:18200\n");
        assertThat(rc).isEqualTo(2);
    }
}
