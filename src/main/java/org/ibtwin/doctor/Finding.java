package org.ibtwin.doctor;

import java.util.List;
import java.util.Objects;

/**
 * One problem doctor names.
 *
 * @param id       the check's stable id (T01..T25, the scenarios of the troubleshooting guide)
 * @param severity how bad it is
 * @param where    the node ("node017"), port ("leaf02/33"), link ("leaf02/33 <-> spine01/17") or hosts
 *                 ("node[005,009]") it is about
 * @param title    one line: what is wrong
 * @param evidence the facts that show it, one per line, each naming where it came from when it came from a file
 * @param fix      what an admin does about it
 */
public record Finding(String id, Severity severity, String where, String title, List<String> evidence, String fix) {
    public Finding {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(where, "where");
        Objects.requireNonNull(title, "title");
        evidence = List.copyOf(evidence);
        Objects.requireNonNull(fix, "fix");
    }
}
