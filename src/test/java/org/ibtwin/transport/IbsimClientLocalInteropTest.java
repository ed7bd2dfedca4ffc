package org.ibtwin.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.ibtwin.interop.RemoteIbsim;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every test of {@link IbsimClientInteropTest} again, with the client attached to a real {@code ibsim} in its local
 * mode (unix sockets in the abstract namespace, no {@code -r}) through {@link IbsimClient#connectLocal}. Needs
 * C-library sockets (JDK 22+ on Linux) besides ibsim. The class's one ibsim is started and stopped by the parent's
 * lifecycle, through {@link #start}.
 */
@Tag("interop")
@Timeout(60)
class IbsimClientLocalInteropTest extends IbsimClientInteropTest {
    final String sockname = "ibtwin-client-test-" + ProcessHandle.current().pid();

    @Override
    RemoteIbsim start(Path exe, Path net) throws Exception {
        if (!SlotSocket.implementation().equals("libc")) {
            System.err.println("INTEROP SKIPPED: ibsim's local mode needs C-library sockets (JDK 22+ on Linux); "
                    + "IbsimClient local-mode interop tests not run");
            return null;
        }
        return RemoteIbsim.startLocal(exe, net, sockname, List.of(), Duration.ofSeconds(10));
    }

    @Override
    IbsimClient connect(String simHost, boolean sm) {
        return IbsimClient.connectLocal(sockname, simHost, sm, IbsimClient.DEFAULT_CONNECT_TIMEOUT);
    }

    @Override
    String ibsimOption() {
        return "@" + sockname;
    }

    @Override
    @Test
    void fromEnvironmentUsesTheServerVariables() {
        IbsimClient c = IbsimClient.fromEnvironment(Map.of("IBSIM_SOCKNAME", sockname, "SIM_HOST",
                "H-0002c90300000220"), null, false);
        clients.add(c);
        assertThat(c.localPort().nodeGuid()).isEqualTo(HOST3);
        assertThat(c.serverAddress()).isEqualTo(new LocalAddress(sockname + ":ctl"));
    }

    @Test
    void aNameNobodyServesIsSaidInOneLine() {
        assertThatThrownBy(() -> IbsimClient.connectLocal(sockname + "-nobody", null, false, Duration.ofMillis(200)))
                .isInstanceOf(MadTransportException.class)
                .hasMessage("no ibsim listening at @" + sockname + "-nobody");
    }
}
