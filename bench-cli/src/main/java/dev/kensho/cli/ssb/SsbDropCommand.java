package dev.kensho.cli.ssb;

import dev.kensho.cli.TargetOptions;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.ssb.SsbCache;
import dev.kensho.ssb.SsbDatabase;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** bench ssb drop: removes what Kensho loaded (only tables its marker lists). */
@Command(name = "drop", mixinStandardHelpOptions = true,
        description = "Drop the SSB tables Kensho created in a schema (only those kensho_ssb_meta lists; others are never touched).")
final class SsbDropCommand implements Callable<Integer> {
    @Mixin TargetOptions target;

    @Option(names = "--schema", defaultValue = "public", paramLabel = "NAME", description = "Schema (default ${DEFAULT-VALUE}).")
    String schema;

    @Override
    public Integer call() {
        TargetSpec spec = target.single();
        if (SsbCache.embedded(spec)) {
            System.err.println("embedded server: nothing to drop; the cached databases live in "
                    + SsbCache.directory(spec, 1).getParent() + " (delete them, or use --fresh)");
            return 0;
        }
        try (Target t = spec.open()) {
            SsbDatabase db = new SsbDatabase(t, schema);
            SsbDatabase.Status st = db.status();
            List<String> dropped = db.drop();
            System.out.println(!st.present() ? "no SSB data loaded by Kensho in schema " + schema
                    : "dropped " + (dropped.isEmpty() ? "" : String.join(", ", dropped) + " and ") + SsbDatabase.META + " in " + schema
                    // a user's table made under the name of one Kensho created: Kensho's is gone already, this one stays
                    + (st.replaced().isEmpty() ? "" : "; left " + String.join(", ", st.replaced()) + " alone: not "
                    + (st.replaced().size() == 1 ? "the table" : "the tables") + " Kensho created"));
        }
        return 0;
    }
}
