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
        ArchRule twin = noClasses().that().resideInAPackage("org.ibtwin.sim..")
                .should().dependOnClassesThat().resideInAnyPackage("org.ibtwin.sm..", "org.ibtwin.diag..",
                        "org.ibtwin.doctor..", "org.ibtwin.lab..", "org.ibtwin.cli..", "org.ibtwin.bench..")
                .allowEmptyShould(true);
        twin.check(classes);
        ArchRule lab = noClasses().that().resideInAPackage("org.ibtwin.lab..")
                .should().dependOnClassesThat().resideInAnyPackage("org.ibtwin.cli..", "org.ibtwin.bench..")
                .allowEmptyShould(true);
        lab.check(classes);
    }

    /**
     * What-if's comparison is pure: it compares what was learnt of two copies through MADs, and knows no twin, no SM
     * and nothing that assembles them (the engine that does is {@code lab.Rehearsal}).
     */
    @Test
    void whatIfComparesWithoutTheTwinOrTheSm() {
        ArchRule rule = noClasses().that().resideInAPackage("org.ibtwin.whatif..")
                .should().dependOnClassesThat().resideInAnyPackage("org.ibtwin.sim..", "org.ibtwin.sm..",
                        "org.ibtwin.lab..", "org.ibtwin.cli..", "org.ibtwin.transport..")
                .allowEmptyShould(true);
        rule.check(classes);
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
        ArchRule bench = noClasses().that().resideInAPackage("org.ibtwin.bench..")
                .should().dependOnClassesThat().resideInAnyPackage("org.ibtwin.cli..", "org.ibtwin.web..")
                .allowEmptyShould(true);
        bench.check(classes);
    }

    @Test
    void lowerLayersDoNotDependOnUpperOnes() {
        ArchRule model = noClasses().that().resideInAPackage("org.ibtwin.model..")
                .should().dependOnClassesThat().resideInAnyPackage("org.ibtwin.format..", "org.ibtwin.gen..",
                        "org.ibtwin.cli..", "org.ibtwin.sim..", "org.ibtwin.sm..", "org.ibtwin.diag..",
                        "org.ibtwin.doctor..", "org.ibtwin.perf..", "org.ibtwin.mad..")
                .allowEmptyShould(true);
        model.check(classes);
        ArchRule format = noClasses().that().resideInAPackage("org.ibtwin.format..")
                .should().dependOnClassesThat().resideInAnyPackage("org.ibtwin.cli..", "org.ibtwin.sim..",
                        "org.ibtwin.sm..", "org.ibtwin.diag..", "org.ibtwin.doctor..")
                .allowEmptyShould(true);
        format.check(classes);
    }
}
