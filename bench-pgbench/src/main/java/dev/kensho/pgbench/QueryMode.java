package dev.kensho.pgbench;

import java.util.Locale;
import java.util.Properties;

/**
 * pgbench's -M/--protocol, mapped onto pgjdbc so that the wire traffic matches: SIMPLE sends one Query
 * message with variables substituted as text; EXTENDED sends an unnamed Parse/Bind/Execute per command
 * (pgjdbc never server-prepares: prepareThreshold=0); PREPARED parses each command once per connection
 * into a named statement and then only binds and executes (prepareThreshold=1, statements reused).
 * Parameters are bound as text with an unspecified type and results come back as text, as with pgbench.
 */
public enum QueryMode {
    SIMPLE, EXTENDED, PREPARED;

    /** pgjdbc connection properties for this mode; merge them into the driver's connection properties. */
    public Properties connectionProperties() {
        Properties p = new Properties();
        switch (this) {
            case SIMPLE -> p.setProperty("preferQueryMode", "simple");
            case EXTENDED -> {
                p.setProperty("preferQueryMode", "extended");
                p.setProperty("prepareThreshold", "0");
            }
            case PREPARED -> {
                p.setProperty("preferQueryMode", "extended");
                p.setProperty("prepareThreshold", "1");
            }
        }
        // Bound text parameters with Oid 0, like pgbench's PQexecParams(..., paramTypes = NULL, ...).
        p.setProperty("stringtype", "unspecified");
        // pgbench asks for text results; pgjdbc would switch prepared statements to binary results.
        p.setProperty("binaryTransfer", "false");
        // pgbench prepares a statement once per connection: pgjdbc prepared every statement anew after each CREATE, ALTER
        // or DROP, so a prepared run of a script with DDL parsed per transaction, and passed where pgbench aborts
        // ("cached plan must not change result type")
        p.setProperty("flushCacheOnDdl", "false");
        return p;
    }

    /** pgbench's spelling in reports ("query mode: prepared"). */
    public String pgbenchName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses -M simple|extended|prepared. */
    public static QueryMode parse(String s) {
        for (QueryMode m : values()) {
            if (m.pgbenchName().equals(s)) {
                return m;
            }
        }
        throw new IllegalArgumentException("invalid query mode (-M): \"" + s + "\"; expected simple, extended or prepared");
    }
}
