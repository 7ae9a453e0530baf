package dev.kensho.core.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.server.OldPostgres;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

@KenshoTarget
class PrewarmTest {

    /** pgbench -i --partitions makes a pgbench_accounts whose parent has no storage: its partitions are what to read. */
    @Test
    void aPartitionedTableIsPrewarmedThroughItsPartitions(Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS prewarm_parts");
            s.execute("CREATE TABLE prewarm_parts (k int PRIMARY KEY, v text) PARTITION BY RANGE (k)");
            s.execute("CREATE TABLE prewarm_parts_1 PARTITION OF prewarm_parts FOR VALUES FROM (0) TO (5000)");
            s.execute("CREATE TABLE prewarm_parts_2 PARTITION OF prewarm_parts FOR VALUES FROM (5000) TO (10000)");
            s.execute("INSERT INTO prewarm_parts SELECT i, repeat('x', 100) FROM generate_series(0, 9999) i");
            s.execute("DROP EXTENSION IF EXISTS pg_prewarm");
            Prewarm.Result r = Prewarm.tables(c, List.of("prewarm_parts"));
            assertTrue(r.createdExtension(), "the database had no pg_prewarm: this call created it, and says so");
            assertEquals(6, r.relations(), "two partitions, their primary-key indexes and TOAST tables");
            assertTrue(r.blocks() > 100, "read " + r.blocks() + " blocks");
            assertFalse(Prewarm.ensureExtension(c), "it exists now: nothing created");
            Prewarm.Result plain = Prewarm.tables(c, List.of("prewarm_parts_1"));
            assertEquals(3, plain.relations(), "a plain table, its index and TOAST table");
            s.execute("CREATE TABLE prewarm_plain (k int PRIMARY KEY)");
            s.execute("INSERT INTO prewarm_plain SELECT generate_series(1, 10000)");
            Prewarm.Result unpartitioned = Prewarm.tables(c, List.of("prewarm_plain"));
            assertEquals(2, unpartitioned.relations(), "a table outside any partition tree, and its index");
            assertTrue(unpartitioned.blocks() > 40, "read " + unpartitioned.blocks() + " blocks");
            s.execute("DROP TABLE prewarm_parts, prewarm_plain");
        }
    }

    /**
     * A session whose search_path is one schema of its own: the extension goes to public, which the path leaves out, and
     * the unqualified pg_prewarm() was "function pg_prewarm(regclass) does not exist" (a sweep's every trial ran cold).
     */
    @Test
    void thePrewarmFunctionIsFoundOutsideTheSearchPath(Target pg) throws Exception {
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS \"Own Schema\" CASCADE");
            s.execute("CREATE SCHEMA \"Own Schema\"");
            s.execute("DROP EXTENSION IF EXISTS pg_prewarm");
            try {
                s.execute("SET search_path = \"Own Schema\"");
                s.execute("CREATE TABLE own_t (k int PRIMARY KEY)");
                s.execute("INSERT INTO own_t SELECT generate_series(1, 10000)");
                Prewarm.Result r = Prewarm.tables(c, List.of("own_t"));
                assertTrue(r.createdExtension());
                assertTrue(r.blocks() > 40, "read " + r.blocks() + " blocks");
                assertTrue(Prewarm.schema(c, "Own Schema").blocks() > 40);
            } finally {
                s.execute("RESET search_path");
                s.execute("DROP SCHEMA \"Own Schema\" CASCADE");
            }
        }
    }

    /**
     * PostgreSQL 10 partitions without pg_partition_tree (12) and without a partitioned table's index (11): the partitions,
     * down through a partitioned partition, and their own indexes; the parents have no storage to read.
     */
    @Test
    void partitionsOnPostgres10() throws Exception {
        try (Target pg = OldPostgres.spec(OldPostgres.PG10).open(); Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE parts10 (k int NOT NULL, v text) PARTITION BY RANGE (k)");
            s.execute("CREATE TABLE parts10_1 PARTITION OF parts10 FOR VALUES FROM (0) TO (5000)");
            s.execute("CREATE TABLE parts10_2 PARTITION OF parts10 FOR VALUES FROM (5000) TO (10000) PARTITION BY RANGE (k)");
            s.execute("CREATE TABLE parts10_2a PARTITION OF parts10_2 FOR VALUES FROM (5000) TO (10000)");
            s.execute("CREATE INDEX ON parts10_1 (k)");
            s.execute("CREATE INDEX ON parts10_2a (k)");
            s.execute("INSERT INTO parts10 SELECT i, repeat('x', 100) FROM generate_series(0, 9999) i");
            Prewarm.Result r = Prewarm.tables(c, List.of("parts10"));
            assertEquals(6, r.relations(), "two leaf partitions, their indexes and TOAST tables");
            assertTrue(r.blocks() > 100, "read " + r.blocks() + " blocks");
            assertEquals(3, Prewarm.tables(c, List.of("parts10_1")).relations(), "a partition alone: itself, its index and TOAST table");
        }
    }
}
