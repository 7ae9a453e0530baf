package dev.kensho.scan;

/** The buffer state a cell starts from. */
public enum CacheState {
    /**
     * PostgreSQL restarted (empty shared buffers) and, where permitted on the server's host, the OS
     * page cache dropped, before every cell, as the study did (再起動とOSのファイルキャッシュをクリア).
     * Where the OS cache cannot be dropped the cell is recorded as "server-cold only".
     */
    COLD("cold"),
    /** The layout's table and index loaded with pg_prewarm before every cell. */
    WARM("warm");

    private final String label;

    CacheState(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
