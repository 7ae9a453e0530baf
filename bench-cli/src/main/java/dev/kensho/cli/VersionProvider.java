package dev.kensho.cli;

import dev.kensho.core.KenshoVersion;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.IVersionProvider;

/** --version: the tool and the PostgreSQL builds it carries. */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        List<String> lines = new ArrayList<>();
        lines.add("Kensho " + KenshoVersion.version() + " (commit " + KenshoVersion.commit() + ")");
        KenshoVersion.embeddedPostgres().forEach((major, full) ->
                lines.add("embedded PostgreSQL " + major + " (binaries " + full + ")"));
        lines.add("other releases (--pg-version 9.6 to 18, e.g. 11.1): zonky's builds, fetched once from Maven Central");
        lines.add("Java " + System.getProperty("java.runtime.version") + " (" + System.getProperty("java.vm.name") + ")");
        return lines.toArray(String[]::new);
    }
}
