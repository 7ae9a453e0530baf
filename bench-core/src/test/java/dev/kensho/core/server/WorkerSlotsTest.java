package dev.kensho.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.LocalPostgres;
import dev.kensho.junit.PgVersion;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Properties;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

@KenshoTarget
class WorkerSlotsTest {

    /**
     * A role without pg_read_all_stats sees other sessions' backend_type as NULL: it counted none of the server's own
     * workers (PostgreSQL 15, max_worker_processes 8, the logical replication launcher in one slot: 8 workers asked for
     * were said to start, and 7 launched). Those without a database are counted all the same, and the count said to be
     * as far as the role sees.
     */
    @Test
    void aRoleThatCannotSeeOtherSessionsCountsTheLauncherAndSaysSo(@LocalPostgres Target pg) throws Exception {
        WorkerSlots seen;
        try (Connection c = pg.connect()) {
            seen = WorkerSlots.of(c);
        }
        assertNull(seen.heldUnseenBy());
        Assumptions.assumeTrue(seen.held() > 0, "no background worker of the server's own running (the logical replication launcher)");
        try (Connection c = pg.connect(); var rs = c.createStatement().executeQuery("SELECT count(*) FROM pg_stat_activity WHERE datid IS NOT NULL"
                + " AND backend_type NOT IN ('client backend', 'autovacuum worker', 'parallel worker', 'walsender')")) {
            rs.next();
            // such a worker (a subscription's apply worker, pg_cron) looks like a client to a plain role: not counted, as said
            Assumptions.assumeTrue(rs.getInt(1) == 0, "a background worker connected to a database runs here, which a plain role cannot tell");
        }
        try (PlainRole role = PlainRole.create(pg, "slots"); Connection c = role.target().connect()) {
            WorkerSlots plain = WorkerSlots.of(c);
            assertEquals(seen.held(), plain.held(), plain.toString());
            assertEquals(role.name(), plain.heldUnseenBy());
            int asked = seen.maxWorkerProcesses() - seen.held() + 1;
            String processes = plain.shortFor(asked).stream().filter(l -> l.startsWith("max_worker_processes")).findFirst().orElse("");
            assertTrue(processes.endsWith(" held by the server's own workers as far as " + role.name() + " sees (GRANT pg_read_all_stats TO "
                    + role.name() + " shows them all)"), processes);
        }
    }

    /**
     * A physical walsender (a standby, pg_basebackup) has a role and no database, as the launcher, but holds a
     * max_wal_senders slot: a role that cannot see its backend_type counted it as a background worker. On a server
     * Kensho runs, whose pg_hba.conf (initdb's) lets a replication connection in, as the machine's may not.
     */
    @Test
    void aRoleThatCannotSeeOtherSessionsDoesNotCountAPhysicalWalsender(@PgVersion(16) Target pg) throws Exception {
        WorkerSlots seen;
        try (Connection c = pg.connect()) {
            seen = WorkerSlots.of(c);
        }
        Properties replication = new Properties();
        replication.setProperty("user", pg.user());
        replication.setProperty("replication", "true");
        replication.setProperty("assumeMinServerVersion", "9.4");
        replication.setProperty("preferQueryMode", "simple");
        try (Connection walsender = DriverManager.getConnection(pg.jdbcUrl(), replication);
             PlainRole role = PlainRole.create(pg, "slots_walsender"); Connection c = role.target().connect()) {
            try (Connection admin = pg.connect(); var rs = admin.createStatement().executeQuery(
                    "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'walsender' AND datid IS NULL")) {
                rs.next();
                assertEquals(1, rs.getInt(1), "the physical walsender is running");
            }
            WorkerSlots plain = WorkerSlots.of(c);
            assertEquals(seen.held(), plain.held(), plain.toString());
            assertEquals(role.name(), plain.heldUnseenBy());
        }
    }
}
