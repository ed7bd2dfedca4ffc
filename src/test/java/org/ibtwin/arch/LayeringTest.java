package org.ibtwin.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** DESIGN.md rule 1: the SM, the diagnostic tools and doctor know the fabric only through MADs. */
class LayeringTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = MainClasses.all();
    }

    /** No class in package pkg (and below) depends on a class in any of the packages forbidden. */
    private static void mustNotUse(String pkg, String... forbidden) {
        noClasses().that().resideInAPackage(pkg).should().dependOnClassesThat().resideInAnyPackage(forbidden)
                .allowEmptyShould(true).check(classes);
    }

    @Test
    void managementLayersNeverReachIntoTheSimulator() {
        ArchRule rule = noClasses().that().resideInAnyPackage("org.ibtwin.sm..", "org.ibtwin.diag..",
                        "org.ibtwin.doctor..", "org.ibtwin.whatif..", "org.ibtwin.exporter..")
                .should().dependOnClassesThat().resideInAPackage("org.ibtwin.sim..")
                .allowEmptyShould(true);
        rule.check(classes);
    }

    /**
     * DESIGN.md rule 6: the twin is hardware. Only the assembly ({@code lab}), the commands ({@code cli}) and the
     * benchmarks ({@code bench}, which measure both) reach into it, so only they may import both {@code sim} and
     * {@code sm}; the twin knows no SM, tool, doctor, lab or bench.
     */
    @Test
    void onlyTheLabAndTheCommandsAssembleTwinAndSm() {
        ArchRule users = noClasses().that().resideOutsideOfPackages("org.ibtwin.sim..", "org.ibtwin.lab..",
                        "org.ibtwin.cli..", "org.ibtwin.bench..")
                .should().dependOnClassesThat().resideInAPackage("org.ibtwin.sim..")
                .allowEmptyShould(true);
        users.check(classes);
        mustNotUse("org.ibtwin.sim..", "org.ibtwin.sm..", "org.ibtwin.diag..", "org.ibtwin.doctor..",
                "org.ibtwin.lab..", "org.ibtwin.cli..", "org.ibtwin.bench..");
        mustNotUse("org.ibtwin.lab..", "org.ibtwin.cli..", "org.ibtwin.bench..");
    }

    /**
     * What-if's comparison is pure: it compares what was learnt of two copies through MADs, and knows no twin, no SM
     * and nothing that assembles them (the engine that does is {@code lab.Rehearsal}).
     */
    @Test
    void whatIfComparesWithoutTheTwinOrTheSm() {
        mustNotUse("org.ibtwin.whatif..", "org.ibtwin.sim..", "org.ibtwin.sm..", "org.ibtwin.lab..", "org.ibtwin.cli..",
                "org.ibtwin.transport..");
    }

    /**
     * The benchmarks and their harness (real ibsim and OpenSM started and watched, process CPU and RSS, JVM heap, GC
     * and allocation) are a front end beside {@code cli}: the command line lists them, nothing else uses them, and
     * they use nothing of the command line's.
     */
    @Test
    void benchesSitBesideTheCommandLine() {
        ArchRule users = noClasses().that().resideOutsideOfPackages("org.ibtwin.bench..", "org.ibtwin.cli..")
                .should().dependOnClassesThat().resideInAPackage("org.ibtwin.bench..")
                .allowEmptyShould(true);
        users.check(classes);
        mustNotUse("org.ibtwin.bench..", "org.ibtwin.cli..", "org.ibtwin.web..");
    }

    @Test
    void lowerLayersDoNotDependOnUpperOnes() {
        mustNotUse("org.ibtwin.model..", "org.ibtwin.format..", "org.ibtwin.gen..", "org.ibtwin.cli..",
                "org.ibtwin.sim..", "org.ibtwin.sm..", "org.ibtwin.diag..", "org.ibtwin.doctor..", "org.ibtwin.perf..",
                "org.ibtwin.mad..");
        mustNotUse("org.ibtwin.format..", "org.ibtwin.cli..", "org.ibtwin.sim..", "org.ibtwin.sm..",
                "org.ibtwin.diag..", "org.ibtwin.doctor..");
    }
}
