package org.ibtwin.diag;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What fuzzing found: a CA port that leads back to itself made the scan go round for ever. */
@Timeout(30)
class NetDiscoveryLoopTest {
    @Test
    void aCaPortLeadingBackToItselfIsReportedOnceAndTheScanEnds() {
        SelfLoopCa t = new SelfLoopCa();
        List<String> errors = new ArrayList<>();
        NetFabric f = NetDiscovery.discover(t, NetDiscovery.Config.defaults().withErrors(errors::add));
        assertThat(errors).containsExactly("Duplicate Port: node 0xec0d9a0300ec8480 port 1 reached again at DR path "
                + "slid 0; dlid 0; 0,1 (it leads back to itself): not explored further");
        assertThat(t.answered.get()).as("SMPs").isLessThan(10);
        assertThat(f.size()).isEqualTo(1);
        assertThat(f.from().guid()).isEqualTo(SelfLoopCa.GUID);
        assertThat(f.from().port(1).remote()).as("the link as answered").isSameAs(f.from().port(1));
    }
}
