package dev.kensho.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Asks for the machine's own PostgreSQL at 127.0.0.1:5432 (database test, user postgres; on this
 * project's machines a Debian PostgreSQL 15 built with JIT), connected as a remote target. The
 * test is skipped, with the reason printed, where nothing answers there; a server that answers but
 * refuses the login (no such role or database) fails it: a misconfigured suite must not pass by skipping.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface LocalPostgres {
    /** The server and database; another database of the machine's server, e.g. one the suite made for itself. */
    String url() default "jdbc:postgresql://127.0.0.1:5432/test";
    /** The role to connect as. */
    String user() default "postgres";
    /** A file holding the role's password, as --password-file; empty: none (trust, ~/.pgpass or PGPASSWORD). */
    String passwordFile() default "";
    /**
     * The command that restarts this server, as --restart-command: without it no test may restart it or change a
     * postmaster-level setting (a remote target is never restarted without permission). Empty: none.
     */
    String restartCommand() default "";
}
