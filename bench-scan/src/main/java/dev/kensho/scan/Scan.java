package dev.kensho.scan;

/** The two access methods the study times at each selectivity. */
public enum Scan {
    /** The range predicate on col01 with the study's planner settings: an Index Scan on the primary key. */
    INDEX("index", "Index Scan"),
    /** The study's {@code col01 || '_'} predicate, which no index can serve: a Seq Scan over every page. */
    FULL("full", "Seq Scan");

    private final String label;
    private final String nodeType;

    Scan(String label, String nodeType) {
        this.label = label;
        this.nodeType = nodeType;
    }

    public String label() {
        return label;
    }

    /** The EXPLAIN node type a valid cell's plan must contain. */
    public String nodeType() {
        return nodeType;
    }
}
