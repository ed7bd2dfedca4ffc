package org.ibtwin.mad;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The codec sits at the bottom: it depends on no other ibtwin package. */
class MadLayeringTest {
    @Test
    void madDependsOnNothingElseInIbtwin() {
        noClasses().that().resideInAPackage("org.ibtwin.mad..")
                .should().dependOnClassesThat().resideInAnyPackage("org.ibtwin.model..", "org.ibtwin.format..",
                        "org.ibtwin.gen..", "org.ibtwin.cli..", "org.ibtwin.transport..", "org.ibtwin.sim..",
                        "org.ibtwin.sm..", "org.ibtwin.diag..", "org.ibtwin.doctor..", "org.ibtwin.perf..")
                .check(new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("org.ibtwin.mad"));
    }
}
