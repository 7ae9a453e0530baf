package dev.kensho.ssb.gen;

/** The five SSB tables, in the order dbgen generates them in one process (that order matters: see {@link SsbGenerator}). */
public enum SsbTable {
    PART("part"),
    SUPPLIER("supplier"),
    CUSTOMER("customer"),
    DATE("date"),
    LINEORDER("lineorder");

    private final String tableName;

    SsbTable(String tableName) {
        this.tableName = tableName;
    }

    /** SQL table name as the SSB paper and the studies use it ({@code date} must be quoted on older servers). */
    public String tableName() {
        return tableName;
    }

    /** dbgen's output file name, e.g. {@code part.tbl}. */
    public String fileName() {
        return tableName + ".tbl";
    }
}
