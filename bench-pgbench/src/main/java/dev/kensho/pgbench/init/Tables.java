package dev.kensho.pgbench.init;

import dev.kensho.pgbench.PartitionMethod;
import java.util.ArrayList;
import java.util.List;

/**
 * The four pgbench tables as pgbench 16/17 defines them: the same columns, the bigint key from scale
 * 20000 on, fillfactor on every table but history, optional unlogged tables and a range- or
 * hash-partitioned pgbench_accounts. Only these four names are ever dropped or truncated.
 */
public final class Tables {
    private Tables() {}

    /** Rows per unit of scale. */
    public static final long BRANCHES = 1, TELLERS = 10, ACCOUNTS = 100_000;
    /** From this scale on, aid no longer fits an int (pgbench's SCALE_32BIT_THRESHOLD). */
    public static final int SCALE_32BIT_THRESHOLD = 20_000;

    public static final String DROP = "drop table if exists pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers";

    /** {@link #DROP} of the tables in one schema (quoted already); unqualified for null. */
    public static String drop(String schema) {
        if (schema == null) return DROP;
        String q = schema + ".";
        return "drop table if exists " + q + "pgbench_accounts, " + q + "pgbench_branches, " + q + "pgbench_history, " + q + "pgbench_tellers";
    }
    public static final String TRUNCATE = "truncate table pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers";

    private record Ddl(String table, String small, String big, boolean fillfactor) { }

    // Creation order is pgbench's: history, tellers, accounts, branches.
    private static final List<Ddl> DDLS = List.of(
            new Ddl("pgbench_history", "tid int,bid int,aid    int,delta int,mtime timestamp,filler char(22)",
                    "tid int,bid int,aid bigint,delta int,mtime timestamp,filler char(22)", false),
            new Ddl("pgbench_tellers", "tid int not null,bid int,tbalance int,filler char(84)",
                    "tid int not null,bid int,tbalance int,filler char(84)", true),
            new Ddl("pgbench_accounts", "aid    int not null,bid int,abalance int,filler char(84)",
                    "aid bigint not null,bid int,abalance int,filler char(84)", true),
            new Ddl("pgbench_branches", "bid int not null,bbalance int,filler char(88)",
                    "bid int not null,bbalance int,filler char(88)", true));

    /**
     * CREATE TABLE statements in a tablespace (--tablespace; null: the database's default), then one per
     * partition. Partitions are created without one, as pgbench does: since PostgreSQL 12 they inherit the
     * partitioned table's.
     */
    public static List<String> create(int scale, int fillfactor, boolean unlogged, int partitions, PartitionMethod method,
                                      String tablespace) {
        return create(scale, fillfactor, unlogged, partitions, method, tablespace, true);
    }

    /**
     * As above, for a server that does or does not take an unlogged partitioned table (before 18 it does). With
     * --unlogged-tables and --partitions, pgbench 16/17 create all four tables unlogged, the partitioned accounts too
     * (the server only records it); 18 refuses that, and pgbench 18 creates the four logged, only the partitions
     * unlogged. Either way every foreign key of step f holds: a logged table may not reference an unlogged one.
     */
    public static List<String> create(int scale, int fillfactor, boolean unlogged, int partitions, PartitionMethod method,
                                      String tablespace, boolean unloggedPartitionedTable) {
        boolean tablesUnlogged = unlogged && (partitions == 0 || unloggedPartitionedTable);
        List<String> out = new ArrayList<>();
        for (Ddl d : DDLS) {
            boolean partitioned = partitions > 0 && d.table.equals("pgbench_accounts");
            StringBuilder sb = new StringBuilder("create").append(tablesUnlogged ? " unlogged" : "")
                    .append(" table ").append(d.table).append('(').append(scale >= SCALE_32BIT_THRESHOLD ? d.big : d.small).append(')');
            if (partitioned) sb.append(" partition by ").append(method == PartitionMethod.HASH ? "hash" : "range").append(" (aid)");
            else if (d.fillfactor) sb.append(" with (fillfactor=").append(fillfactor).append(')');
            if (tablespace != null) sb.append(" tablespace ").append(dev.kensho.core.server.SqlIdentifier.quoted(tablespace));
            out.add(sb.toString());
        }
        if (partitions > 0) {
            long total = ACCOUNTS * scale;
            long partSize = (total + partitions - 1) / partitions;
            for (int p = 1; p <= partitions; p++) {
                StringBuilder sb = new StringBuilder("create").append(unlogged ? " unlogged" : "")
                        .append(" table pgbench_accounts_").append(p).append("\n  partition of pgbench_accounts\n  for values ");
                if (method == PartitionMethod.HASH) {
                    sb.append("with (modulus ").append(partitions).append(", remainder ").append(p - 1).append(')');
                } else {
                    String lo = p == 1 ? "minvalue" : Long.toString((p - 1) * partSize + 1);
                    String hi = p < partitions ? Long.toString(p * partSize + 1) : "maxvalue";
                    sb.append("from (").append(lo).append(") to (").append(hi).append(')');
                }
                // pgbench sets it on every partition, 100 included (explicit in reloptions)
                sb.append(" with (fillfactor=").append(fillfactor).append(')');
                out.add(sb.toString());
            }
        }
        return out;
    }

    public static final List<String> VACUUM = List.of("vacuum analyze pgbench_branches", "vacuum analyze pgbench_tellers",
            "vacuum analyze pgbench_accounts", "vacuum analyze pgbench_history");

    public static final List<String> PRIMARY_KEYS = List.of("alter table pgbench_branches add primary key (bid)",
            "alter table pgbench_tellers add primary key (tid)", "alter table pgbench_accounts add primary key (aid)");

    /** The primary keys with their indexes in a tablespace (--index-tablespace; null: the default). */
    public static List<String> primaryKeys(String indexTablespace) {
        if (indexTablespace == null) return PRIMARY_KEYS;
        return PRIMARY_KEYS.stream().map(s -> s + " using index tablespace " + dev.kensho.core.server.SqlIdentifier.quoted(indexTablespace)).toList();
    }

    public static final List<String> FOREIGN_KEYS = List.of(
            "alter table pgbench_tellers add constraint pgbench_tellers_bid_fkey foreign key (bid) references pgbench_branches",
            "alter table pgbench_accounts add constraint pgbench_accounts_bid_fkey foreign key (bid) references pgbench_branches",
            "alter table pgbench_history add constraint pgbench_history_bid_fkey foreign key (bid) references pgbench_branches",
            "alter table pgbench_history add constraint pgbench_history_tid_fkey foreign key (tid) references pgbench_tellers",
            "alter table pgbench_history add constraint pgbench_history_aid_fkey foreign key (aid) references pgbench_accounts");

    /** pgbench's server-side generation (-I G); branch and teller fillers stay NULL there, as in pgbench. */
    public static List<String> serverSideInserts(int scale) {
        return List.of(
                "insert into pgbench_branches(bid,bbalance) select bid, 0 from generate_series(1, " + BRANCHES * scale + ") as bid",
                "insert into pgbench_tellers(tid,bid,tbalance) select tid, (tid - 1) / " + TELLERS + " + 1, 0 from generate_series(1, "
                        + TELLERS * scale + ") as tid",
                "insert into pgbench_accounts(aid,bid,abalance,filler) select aid, (aid - 1) / " + ACCOUNTS + " + 1, 0, '' from generate_series(1, "
                        + ACCOUNTS * scale + ") as aid");
    }
}
