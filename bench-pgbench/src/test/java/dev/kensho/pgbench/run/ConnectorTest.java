package dev.kensho.pgbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.pgbench.QueryMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.jdbc.PreferQueryMode;

/**
 * -M reaches pgjdbc: simple protocol for simple, never server-prepared for extended, named at once for prepared; and
 * a client's socket waits in one blocking read.
 */
@KenshoTarget
class ConnectorTest {
    @Test
    void modesMapToPgjdbcSettings(Target pg) throws Exception {
        PreferQueryMode[] expectMode = {PreferQueryMode.SIMPLE, PreferQueryMode.EXTENDED, PreferQueryMode.EXTENDED};
        int[] expectThreshold = {-1, 0, 1};
        for (QueryMode m : QueryMode.values()) {
            Connector connector = new Connector(pg, m);
            try (Connection c = connector.connect()) {
                PGConnection p = c.unwrap(PGConnection.class);
                assertEquals(expectMode[m.ordinal()], p.getPreferQueryMode(), m.toString());
                if (expectThreshold[m.ordinal()] >= 0) assertEquals(expectThreshold[m.ordinal()], p.getPrepareThreshold(), m.toString());
            }
        }
    }

    /**
     * pgbench prepares a statement once per connection: pgjdbc prepared every statement anew after any CREATE, ALTER or
     * DROP, so a prepared run of a script with DDL parsed each statement in every transaction.
     */
    @Test
    void aPreparedRunPreparesOnceDespiteDdl(Target pg, @org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("drop table if exists kensho_prepared_once");
            s.execute("create table kensho_prepared_once(t timestamptz)");
        }
        try {
            Path script = Files.writeString(tmp.resolve("ddl.sql"), "select 1 as kensho_once;\n"
                    + "drop table if exists kensho_no_such_table;\n"
                    + "insert into kensho_prepared_once select prepare_time from pg_prepared_statements where statement like 'select 1 as kensho_once%';\n");
            var r = new dev.kensho.pgbench.PgbenchRun().mode(QueryMode.PREPARED).file(script.toString()).transactions(3).noVacuum(true)
                    .warmup(0).output(RunOptionsTest.sink(new java.io.ByteArrayOutputStream()), RunOptionsTest.sink(new java.io.ByteArrayOutputStream())).run(pg);
            assertEquals(3, r.processed());
            try (Connection c = pg.connect()) {
                assertEquals(3, scalar(c, "select count(*) from kensho_prepared_once"));
                assertEquals(1, scalar(c, "select count(distinct t) from kensho_prepared_once"), "prepared once, not per transaction");
            }
        } finally {
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("drop table if exists kensho_prepared_once");
            }
        }
    }

    /**
     * The socket under a client connection is in blocking mode once connected (pgjdbc connected it with a timeout),
     * so each wait for the server is one read, not read-EAGAIN-poll-read. Read off Linux's /proc: the connection's
     * local port, its socket inode, this process's descriptor for that inode, and the descriptor's O_NONBLOCK flag.
     */
    @Test
    void clientSocketsWaitInBlockingReads(Target pg) throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/fdinfo")), "needs Linux /proc to read a descriptor's flags");
        try (Connection c = new Connector(pg, QueryMode.PREPARED).connect()) {
            for (int i = 0; i < 3; i++) {
                assertEquals(1, scalar(c, "SELECT 1"));
            }
            long flags = socketFlags((int) scalar(c, "SELECT inet_client_port()"));
            assertFalse((flags & 04000) != 0, "O_NONBLOCK is set on the client's socket: flags " + Long.toOctalString(flags));
        }
    }

    private static long scalar(Connection c, String sql) throws Exception {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    /** The octal "flags:" of this process's descriptor for the TCP socket bound to localPort. */
    private static long socketFlags(int localPort) throws IOException {
        // every socket on that port, the machine's: an earlier connection's in TIME_WAIT (inode 0), another process's
        java.util.Set<String> targets = new java.util.HashSet<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            for (String line : Files.readAllLines(Path.of(table))) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && f[1].endsWith(":" + String.format("%04X", localPort)) && !f[9].equals("0")) {
                    targets.add("socket:[" + f[9] + "]");
                }
            }
        }
        assumeTrue(!targets.isEmpty(), "no socket on local port " + localPort + " in /proc/net (server not on TCP?)");
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    if (targets.contains(Files.readSymbolicLink(fd).toString())) {
                        for (String line : Files.readAllLines(Path.of("/proc/self/fdinfo", fd.getFileName().toString()))) {
                            if (line.startsWith("flags:")) return Long.parseLong(line.substring(6).trim(), 8);
                        }
                    }
                } catch (IOException gone) {
                    // a descriptor closed while we listed them
                }
            }
        }
        throw new AssertionError("no descriptor of this process holds one of " + targets);
    }
}
