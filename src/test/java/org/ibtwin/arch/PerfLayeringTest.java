package org.ibtwin.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * DESIGN.md rule 9: the performance model is pure functions of the model: no I/O, clocks or threads; perftest's
 * option rules among them, the commands only parsing and printing.
 */
class PerfLayeringTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = MainClasses.all();
    }

    @Test
    void perfDependsOnTheModelAlone() {
        classes().that().resideInAPackage("org.ibtwin.perf..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("org.ibtwin.perf..", "org.ibtwin.model..",
                        "java.lang..", "java.util")
                .check(classes);
    }

    @Test
    void perfHasNoClocksThreadsOrIo() {
        noClasses().that().resideInAPackage("org.ibtwin.perf..")
                .should().callMethod(System.class, "nanoTime")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().dependOnClassesThat().resideInAnyPackage("java.io..", "java.nio..", "java.time..",
                        "java.util.concurrent..", "java.net..")
                .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
                .check(classes);
    }

    /** perftest's defaults and refusals are decided in perf ({@code PerftestOptions}), with no I/O and no picocli. */
    @Test
    void perftestsOptionRulesAreInPerfWithoutIoOrPicocli() {
        noClasses().that().resideInAPackage("org.ibtwin.perf..")
                .should().dependOnClassesThat().resideInAnyPackage("picocli..", "java.io..", "java.nio..",
                        "java.net..", "org.ibtwin.cli..")
                .check(classes);
        classes().that().haveFullyQualifiedName("org.ibtwin.cli.PerftestCommand")
                .should().dependOnClassesThat().haveFullyQualifiedName("org.ibtwin.perf.PerftestOptions")
                .check(classes);
    }
}
