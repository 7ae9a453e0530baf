package dev.kensho.ssb.gen;

import java.io.IOException;

/** One table's rows for a range of generation units; each implementation seeks its streams by exact jump-ahead. */
interface TableRows {
    /** Writes the rows of units [from, to), 0-based. */
    void write(long from, long to, RowBuffer out) throws IOException;
}
