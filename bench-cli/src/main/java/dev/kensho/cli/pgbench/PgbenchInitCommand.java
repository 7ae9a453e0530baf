package dev.kensho.cli.pgbench;

import java.util.Locale;
import dev.kensho.cli.ResultOptions;
import dev.kensho.cli.TargetOptions;
import dev.kensho.core.env.Environment;
import dev.kensho.core.result.CellSummary;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetKind;
import dev.kensho.core.server.TargetSpec;
import dev.kensho.pgbench.PartitionMethod;
import dev.kensho.pgbench.PgbenchInit;
import dev.kensho.pgbench.init.Tables;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** bench pgbench init: pgbench -i, timed per step and recorded as a trial (the batch load of study 004). */
@Command(name = "init", mixinStandardHelpOptions = true,
        description = {"Create and fill pgbench_branches, pgbench_tellers, pgbench_accounts and pgbench_history exactly as "
                + "PostgreSQL 17's 'pgbench -i' does (15 and 16 INSERT branches and tellers, which 17 loads by COPY FREEZE too), "
                + "and print pgbench's timing line. Drops only those four tables.",
                "Example:",
                "  bench pgbench init -s 10 --url jdbc:postgresql://127.0.0.1:5432/test \\",
                "      -U postgres"})
final class PgbenchInitCommand implements Callable<Integer> {
    @Mixin TargetOptions target;
    @Mixin ResultOptions results;

    @Option(names = {"-s", "--scale"}, paramLabel = "SCALE", defaultValue = "1", description = "Scaling factor: 100 000 accounts per unit (default ${DEFAULT-VALUE}).")
    int scale;

    @Option(names = {"-F", "--fillfactor"}, paramLabel = "PERCENT", defaultValue = "100", description = "Fillfactor of branches, tellers, accounts (10..100).")
    int fillfactor;

    @Option(names = {"-I", "--init-steps"}, paramLabel = "STEPS",
            description = "Steps to run, in order: d drop, t create, g client-side generate (COPY), G server-side generate, "
                    + "v vacuum, p primary keys, f foreign keys (default dtgvp).")
    String steps;

    @Option(names = "--foreign-keys", description = "Create foreign keys between the tables (adds step f).")
    boolean foreignKeys;

    @Option(names = "--unlogged-tables", description = "Create the tables unlogged.")
    boolean unlogged;

    @Option(names = "--tablespace", paramLabel = "TABLESPACE",
            description = "Create the tables in this existing tablespace (the name is quoted as pgbench quotes it; partitions inherit it).")
    String tablespace;

    @Option(names = "--index-tablespace", paramLabel = "TABLESPACE",
            description = "Create the primary-key indexes in this existing tablespace (USING INDEX TABLESPACE).")
    String indexTablespace;

    @Option(names = "--partitions", paramLabel = "N", defaultValue = "0", description = "Partition pgbench_accounts into N partitions.")
    int partitions;

    @Option(names = "--partition-method", paramLabel = "METHOD", description = "range or hash (default range; needs --partitions).")
    String partitionMethod;

    @Option(names = {"-n", "--no-vacuum"}, description = "Skip the vacuum step.")
    boolean noVacuum;

    @Option(names = {"-q", "--quiet"}, description = "Progress every 5 seconds instead of every 100 000 rows.")
    boolean quiet;

    @Override
    public Integer call() {
        PgbenchInit init = new PgbenchInit().scale(scale).fillfactor(fillfactor).steps(steps).foreignKeys(foreignKeys)
                .unlogged(unlogged).tablespace(tablespace).indexTablespace(indexTablespace).partitions(partitions)
                .partitionMethod(partitionMethod == null ? null : PartitionMethod.parse(partitionMethod)).noVacuum(noVacuum).quiet(quiet)
                .log(System.err);
        init.validate();   // bad options and -I fail before anything starts
        String effective = init.effectiveSteps();
        TargetSpec spec = target.single();
        Map<String, Object> params = new LinkedHashMap<>();
        // steps that fill nothing (-I v, p, f) leave the tables' scale, which the trial records: -s's default 1 beside it
        // read as the run's
        params.put("scale", effective.indexOf('g') >= 0 || effective.indexOf('G') >= 0 ? scale : null);
        params.put("steps", effective);
        // what shapes the tables: a --resume with another value would leave a run that says it made tables it did not
        params.put("fillfactor", fillfactor);
        params.put("unlogged_tables", unlogged);
        params.put("tablespace", tablespace);
        params.put("index_tablespace", indexTablespace);
        params.put("partitions", partitions);
        params.put("partition_method", partitionMethod == null ? null : PartitionMethod.parse(partitionMethod).name().toLowerCase(Locale.ROOT));
        params.put("target", spec.label());
        params.put("settings", target.settings());
        // the run directory first: a --resume refused is refused before a server starts
        try (RunDirectory dir = results.open(PgbenchInit.COMMAND, params, System.err); Target t = spec.open()) {
            // with its trial: a kill between the two left a run without summary.csv, which a resume, finding the trial, never wrote
            dir.summarizeAfterEachTrial(d -> CellSummary.write(d, List.of("seconds")));
            if (!dir.trials().isEmpty()) {
                CellSummary.write(dir, List.of("seconds"));
                // an init records its trial only when it finished: doing it again would rebuild the tables the
                // run already made (and perhaps a later run measured), and add a second trial of the same cell
                System.err.println("pgbench init: its trial is already in " + dir.path() + "; nothing left to resume");
                return 0;
            }
            if (spec.keepData() == null && spec.kind() != TargetKind.REMOTE) {
                // said before a load that may take minutes: its load time is the measurement, the tables do not outlive it
                System.err.println("pgbench init: the tables go with this " + (spec.kind() == TargetKind.TESTCONTAINERS ? "container"
                        : "managed server") + " when the command ends; --keep-data DIR keeps them for later runs, --url loads a server of yours");
            }
            dir.environment(spec.label(), Environment.capture(t));
            init.run(t, dir, dir.trials().size());
            CellSummary.write(dir, List.of("seconds"));
        }
        return 0;
    }
}
