package dev.kensho.pgbench;

import dev.kensho.core.KenshoException;

/** --partition-method: how pgbench_accounts is partitioned when --partitions is given. */
public enum PartitionMethod {
    NONE, RANGE, HASH;

    /** --partition-method as typed: range or hash (any case), as pgbench accepts it; "none" is no method it knows. */
    public static PartitionMethod parse(String typed) {
        if (typed.equalsIgnoreCase("range")) return RANGE;
        if (typed.equalsIgnoreCase("hash")) return HASH;
        throw KenshoException.usage(invalid(typed));
    }

    /** pgbench's words for a method it does not know. */
    public static String invalid(String typed) {
        return "invalid partition method, expecting \"range\" or \"hash\", got: \"" + typed + "\"";
    }
}
