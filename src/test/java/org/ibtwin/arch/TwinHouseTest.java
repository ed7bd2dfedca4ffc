package org.ibtwin.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The twin's house (sim): {@code TwinState} holds the fabric's state and the helpers the agents share, the agents
 * and {@code Links} work on it, {@code Twin} is the lock and the public API, and the console is a client of that API
 * like any other.
 */
class TwinHouseTest {
    private static final String TWIN = "org.ibtwin.sim.Twin";
    private static final String AGENTS = "org\\.ibtwin\\.sim\\.(Sma|Pma|Forwarding|Traps|Links)(\\$.*)?";
    private static final String CONSOLE = "org\\.ibtwin\\.sim\\.Console(\\$.*)?";
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = MainClasses.of("org.ibtwin.sim");
    }

    @Test
    void theAgentsWorkOnTheStateNotOnTheTwin() {
        ArchRule notTwin = noClasses().that().haveNameMatching(AGENTS)
                .should().dependOnClassesThat().haveNameMatching("org\\.ibtwin\\.sim\\.Twin(\\$.*)?");
        notTwin.check(classes);
        ArchRule onState = classes().that().haveNameMatching("org\\.ibtwin\\.sim\\.(Sma|Pma|Forwarding|Traps|Links)")
                .should().dependOnClassesThat().haveFullyQualifiedName("org.ibtwin.sim.TwinState");
        onState.check(classes);
    }

    @Test
    void theConsoleUsesOnlyTheTwinsPublicApi() {
        ArchRule noInternals = noClasses().that().haveNameMatching(CONSOLE)
                .should().dependOnClassesThat().haveNameMatching(
                        "org\\.ibtwin\\.sim\\.(TwinState|Links|Sma|Pma|Forwarding|Traps|TwinAttachment)(\\$.*)?");
        noInternals.check(classes);
        DescribedPredicate<JavaAccess<?>> nonPublicTwin = new DescribedPredicate<>("a non-public member of Twin") {
            @Override
            public boolean test(JavaAccess<?> access) {
                return access.getTargetOwner().getName().equals(TWIN)
                        && access.getTarget().resolveMember()
                                .map(m -> !m.getModifiers().contains(JavaModifier.PUBLIC)).orElse(true);
            }
        };
        ArchRule publicOnly = noClasses().that().haveNameMatching(CONSOLE).should().accessTargetWhere(nonPublicTwin);
        publicOnly.check(classes);
    }
}
