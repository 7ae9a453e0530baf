package dev.kensho.pgbench.script;

import java.util.Map;

/**
 * The two meta-command lines the PGECons studies quote with a typo that pgbench itself rejects. The studies report
 * results from these scripts, so their authors ran the corrected line; "every script quoted in the studies runs
 * unchanged" therefore means Kensho reads exactly these lines as corrected (with a warning), the way it reads the
 * studies' removed {@code \setrandom}. Only the exact quoted text (whitespace runs collapsed) matches: any other
 * malformed line is still rejected where pgbench rejects it.
 */
final class StudyErrata {
    /** What the authors of a quoted line ran, and where the report quotes it. */
    record Erratum(String corrected, String source) {}

    private static final Map<String, Erratum> BY_QUOTED = Map.of(
            "\\set aid_random(1, :aid_max)", new Erratum(
                    "\\set aid random(1, :aid_max)", "PGECons study 000, section 5.3.3.1"),
            "\\set aid random(1 :aid_max)", new Erratum(
                    "\\set aid random(1, :aid_max)", "PGECons study 001, read-only custom script"));

    private StudyErrata() {}

    /** The erratum whose quoted text this meta-command line is, or null. */
    static Erratum of(String line) {
        return BY_QUOTED.get(line.strip().replaceAll("[ \\t]+", " "));
    }
}
