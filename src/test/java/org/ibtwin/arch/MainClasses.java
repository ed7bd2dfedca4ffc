package org.ibtwin.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/** The production classes under a package, imported once per test run for the layering tests. */
final class MainClasses {
    private static JavaClasses all;

    private MainClasses() {
    }

    /** Every production class of org.ibtwin (no tests). */
    static synchronized JavaClasses all() {
        if (all == null) {
            all = of("org.ibtwin");
        }
        return all;
    }

    /** The production classes under {@code pkg} (no tests). */
    static JavaClasses of(String pkg) {
        return new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(pkg);
    }
}
