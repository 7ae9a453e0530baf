package dev.kensho.pgbench;

import dev.kensho.core.Credentials;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.pgbench.script.Script;
import java.util.List;

/**
 * The scripts a run ran, kept in its results directory as {@code scripts/N-NAME.sql} (N their position on the command
 * line), so the directory reproduces the run by itself: run.json names a -f file by the path it was given, relative to
 * a working directory it does not record, and that file may change or go. Passwords in them are masked, as everywhere.
 */
final class ScriptCopies {
    static final String DIRECTORY = "scripts";

    private ScriptCopies() {}

    static void write(RunDirectory dir, List<Script> scripts) {
        for (int i = 0; i < scripts.size(); i++) {
            Script s = scripts.get(i);
            if (s.source() == null) continue;
            dir.writeAtomically(DIRECTORY + "/" + (i + 1) + "-" + fileName(s.name()), Credentials.maskText(s.source()));
        }
    }

    /** The script's file name without its directories, in characters any file system takes. */
    static String fileName(String name) {
        String base = name.substring(name.lastIndexOf('/') + 1);
        String safe = base.replaceAll("[^\\p{L}\\p{N}._-]", "_");
        if (safe.isEmpty() || safe.chars().allMatch(c -> c == '.')) safe = "script";
        return safe.endsWith(".sql") ? safe : safe + ".sql";
    }
}
