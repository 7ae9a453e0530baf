package dev.kensho.cli.pgbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.cli.CommandRun;
import org.junit.jupiter.api.Test;

/**
 * A pgbench user's connection arguments (-h HOST -p PORT DBNAME) on a bench pgbench command line: Kensho's -h is
 * --help and the server is one --url. No server is reached: each is refused before anything runs.
 */
class PgbenchConnectionArgsTest {

    @Test
    void pgbenchsHostIsRefusedNotAnsweredWithTheHelpAndExit0() {
        // before: the help on stdout, exit 0, nothing run (a script took it for a finished run)
        CommandRun r = CommandRun.of("pgbench", "run", "-h", "127.0.0.1", "-p", "5432", "-U", "postgres", "-n", "-S", "-T", "5", "kx_bench");
        assertEquals(2, r.exit(), r.out() + r.err());
        assertEquals("", r.out());
        assertTrue(r.err().contains("--url jdbc:postgresql://127.0.0.1:5432/kx_bench"), r.err());
        assertTrue(r.err().contains("-h is --help here, not pgbench's -h HOST"), r.err());
    }

    @Test
    void initAndSweepTooAndASocketDirectory() {
        CommandRun init = CommandRun.of("pgbench", "init", "-h", "/var/run/postgresql", "-s", "2", "kx_bench");
        assertEquals(2, init.exit(), init.out() + init.err());
        assertTrue(init.err().contains("--url jdbc:postgresql:///kx_bench?host=/var/run/postgresql"), init.err());
        CommandRun sweep = CommandRun.of("pgbench", "sweep", "--clients", "1", "-h", "db.example", "kx_bench");
        assertEquals(2, sweep.exit(), sweep.out() + sweep.err());
        assertTrue(sweep.err().contains("--url jdbc:postgresql://db.example/kx_bench"), sweep.err());
    }

    /** An unknown long option's value is no DBNAME: "--durationx 2" was told "--url jdbc:postgresql://localhost/2". */
    @Test
    void anUnknownOptionsValueIsNoDatabaseName() {
        CommandRun r = CommandRun.of("pgbench", "sweep", "--clients", "1", "--durationx", "2");
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("--durationx") && !r.err().contains("jdbc:postgresql://localhost/2"), r.err());
    }

    /** report's -o on a run: "-o /tmp/out" was told "--url jdbc:postgresql://localhost//tmp/out". */
    @Test
    void anUnknownShortOptionsValueIsNoDatabaseName() {
        CommandRun r = CommandRun.of("pgbench", "run", "-S", "-t", "1", "-o", "/tmp/kx_out");
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(!r.err().contains("jdbc:postgresql://") && r.err().contains("a run's results directory is --results DIR"), r.err());
        // a DBNAME after it is still one
        CommandRun db = CommandRun.of("pgbench", "run", "-S", "-t", "1", "-x", "1", "kx_bench");
        assertTrue(db.err().contains("--url jdbc:postgresql://localhost/kx_bench") && !db.err().contains("--results DIR"), db.err());
        // an option with its value attached takes no word after it
        CommandRun attached = CommandRun.of("pgbench", "run", "-S", "--foo=3", "kx_bench");
        assertTrue(attached.err().contains("--url jdbc:postgresql://localhost/kx_bench"), attached.err());
    }

    /**
     * pgbench takes a connection string or a URI where DBNAME goes: the hint is the URL they mean (it was
     * "--url jdbc:postgresql://localhost/host=127.0.0.1 port=5564 dbname=x", no URL at all), never with a password.
     */
    @Test
    void aConnectionStringInDbnamesPlaceIsTheUrlItMeans() {
        CommandRun r = CommandRun.of("pgbench", "run", "-S", "-T", "5", "host=127.0.0.1 port=5564 dbname='my db' user=kx password=s3cret application_name=a\\'b");
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("--url jdbc:postgresql://127.0.0.1:5564/my%20db?user=kx&application_name=a%27b"), r.err());
        assertTrue(!r.err().contains("s3cret"), r.err());
        CommandRun socket = CommandRun.of("pgbench", "init", "host=/var/run/postgresql dbname=kx");
        assertTrue(socket.err().contains("--url jdbc:postgresql:///kx?host=/var/run/postgresql"), socket.err());
        CommandRun uri = CommandRun.of("pgbench", "run", "-S", "postgresql://kx:s3cret@db.example:5433/kx");
        assertTrue(uri.err().contains("--url postgresql://kx:****@db.example:5433/kx"), uri.err());
    }

    @Test
    void aLoneHIsStillTheHelp() {
        CommandRun r = CommandRun.of("pgbench", "run", "-h");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("Usage: bench pgbench run"), r.out());
    }

    @Test
    void portAndDatabaseWithoutHostNameTheUrl() {
        // before: "Unknown options: '-p', '5432', 'kx_bench'" and no word of --url
        CommandRun r = CommandRun.of("pgbench", "run", "-U", "postgres", "-S", "-t", "1", "-p", "5432", "kx_bench");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("Unknown options: '-p', '5432', 'kx_bench'"), r.err());
        assertTrue(r.err().contains("--url jdbc:postgresql://localhost:5432/kx_bench"), r.err());
        CommandRun db = CommandRun.of("pgbench", "run", "-S", "-t", "1", "kx_bench");
        assertEquals(2, db.exit(), db.err());
        assertTrue(db.err().contains("--url jdbc:postgresql://localhost/kx_bench"), db.err());
    }

    @Test
    void anUnknownOptionOrTwoStrayWordsGetNoUrlHint() {
        CommandRun r = CommandRun.of("pgbench", "run", "-S", "--no-such-option");
        assertEquals(2, r.exit(), r.err());
        assertTrue(!r.err().contains("--url"), r.err());
        // pgbench takes one DBNAME: two words are not one
        CommandRun words = CommandRun.of("pgbench", "run", "-S", "-T", "5", "extra", "words");
        assertEquals(2, words.exit(), words.err());
        assertTrue(!words.err().contains("--url"), words.err());
    }
}
