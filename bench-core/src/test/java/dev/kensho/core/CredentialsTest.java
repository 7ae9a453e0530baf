package dev.kensho.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What is masked where a password may hold any character: each form checked as a URL alone ({@link Credentials#maskUrl}),
 * as a command-line argument ({@link Credentials#maskArgs}), and quoted in free text, a command line joined by spaces
 * among them ({@link Credentials#mask}); masking twice changes nothing.
 */
class CredentialsTest {
    private static final String HOST = "127.0.0.1:5432/db";

    /** A URL, masked alone, as an argument, and inside a joined command line whose other arguments stay. */
    private static void masked(String url, String expected) {
        assertEquals(expected, Credentials.maskUrl(url));
        assertEquals(expected, Credentials.mask(url));
        assertArrayEquals(new String[] {"run", "--url", expected, "--runs", "3"},
                Credentials.maskArgs(new String[] {"run", "--url", url, "--runs", "3"}));
        assertEquals("bench run --url " + expected + " --runs 3", Credentials.mask("bench run --url " + url + " --runs 3"));
        assertEquals("cannot connect to " + expected + "\n\tat x.y(Z.java:1)", Credentials.mask("cannot connect to " + url + "\n\tat x.y(Z.java:1)"));
        assertEquals(expected, Credentials.mask(Credentials.mask(url)));
        assertEquals(expected, Credentials.maskUrl(Credentials.maskUrl(url)));
    }

    /**
     * A password a target connects with is masked by its value wherever a user also wrote it (a --restart-command's
     * text, a -D value), where no pattern finds it; not one of under 6 characters, or one that is the user's name.
     */
    @Test
    void aPasswordKenshoConnectsWithIsMaskedWhereverItIsWritten() {
        Credentials.remember("Zq9_remembered!", "u", "db");
        assertEquals("PGPASS=**** pg_ctl restart", Credentials.mask("PGPASS=Zq9_remembered! pg_ctl restart"));
        assertArrayEquals(new String[] {"-D", "pw=****"}, Credentials.maskArgs(new String[] {"-D", "pw=Zq9_remembered!"}));
        assertEquals("SELECT '****'", Credentials.maskText("SELECT 'Zq9_remembered!'"));
        // the longest first: one inside another left the rest of the longer one
        Credentials.remember("Sup3rS3cretPw", "u", "db");
        Credentials.remember("S3cretPw", "u", "db");
        assertEquals("PGPASSWORD=****", Credentials.mask("PGPASSWORD=Sup3rS3cretPw"));
        // as the server echoes a word it folded: in any case between double quotes, and only there (a name of its own:
        // KNOWN is the JVM's, and another test's s3cret is inside sup3rs3cretpw)
        Credentials.remember("Qx7VwLmZp9", "u", "db");
        assertEquals("ERROR: column \"****\" does not exist", Credentials.mask("ERROR: column \"qx7vwlmzp9\" does not exist"));
        assertEquals("qx7vwlmzp9", Credentials.mask("qx7vwlmzp9"));
        // not one that is a part of every URL (jdbc:postgresql:// masked, no run could start), nor a name in another case
        Credentials.remember("Postgres", "u", "db");
        Credentials.remember("postgresql", "u", "db");
        Credentials.remember("Kx_h5_db", "u", "kx_h5_db");
        assertEquals("jdbc:postgresql://127.0.0.1:5432/kx_h5_db", Credentials.mask("jdbc:postgresql://127.0.0.1:5432/kx_h5_db"));
        Credentials.remember("kensho_own_name", "kensho_own_name", "db");
        unchanged("user kensho_own_name");
        Credentials.remember("abc12", "u");
        unchanged("abc12");
    }

    private static void unchanged(String text) {
        assertEquals(text, Credentials.mask(text));
        assertEquals(text, Credentials.maskUrl(text));
    }

    @Test
    void aPasswordParameterRunsToTheNextAmpersandOrTheEnd() {
        masked("jdbc:postgresql://" + HOST + "?password=hunter2", "jdbc:postgresql://" + HOST + "?password=****");
        masked("jdbc:postgresql://" + HOST + "?password=se cret123", "jdbc:postgresql://" + HOST + "?password=****");
        masked("jdbc:postgresql://" + HOST + "?password=se cret123&sslmode=require", "jdbc:postgresql://" + HOST + "?password=****&sslmode=require");
        masked("jdbc:postgresql://" + HOST + "?user=u&password=a;b c#d&ssl=true", "jdbc:postgresql://" + HOST + "?user=u&password=****&ssl=true");
        // any case, and pgjdbc's sslpassword (a client key's)
        masked("jdbc:postgresql://" + HOST + "?PassWord=Hunter 2&sslmode=verify-full", "jdbc:postgresql://" + HOST + "?PassWord=****&sslmode=verify-full");
        masked("jdbc:postgresql://" + HOST + "?sslkey=k.pk8&sslpassword=key pass", "jdbc:postgresql://" + HOST + "?sslkey=k.pk8&sslpassword=****");
        masked("jdbc:postgresql://" + HOST + "?SSLPASSWORD=x&password=y z", "jdbc:postgresql://" + HOST + "?SSLPASSWORD=****&password=****");
        // an argument is whole: what follows a space in it is the password's, even what looks like an option
        assertEquals("--url=jdbc:postgresql://h/db?password=****", Credentials.maskArgs(new String[] {"--url=jdbc:postgresql://h/db?password=a --runs 3"})[0]);
        // free text: up to the line's end or the next option, short or long
        assertEquals("pgbench -h h 'postgresql://h/db?password=**** -c 10", Credentials.mask("pgbench -h h 'postgresql://h/db?password=se cret -c 10"));
        assertEquals("password=****\nnext line", Credentials.mask("password=se cret\nnext line"));
        assertEquals("PGPASSWORD=**** --verbose", Credentials.mask("PGPASSWORD=x y --verbose"));
        // libpq's conninfo takes blanks around the '=': "password = x" was printed whole
        assertEquals("'host=h password = ****", Credentials.mask("'host=h password = Sekr3tQ dbname=x'"));
        assertEquals("host=h password=\t****", Credentials.maskText("host=h password=\tSekr3tQ"));
    }

    @Test
    void userinfoWithASpaceAnAtASlashOrAQuestionMark() {
        masked("jdbc:postgresql://root:hunter2@" + HOST, "jdbc:postgresql://root:****@" + HOST);
        masked("jdbc:postgresql://root:s3cr et123@" + HOST, "jdbc:postgresql://root:****@" + HOST);
        // the userinfo ends at the last '@' before the host, as RemoteServer reads it
        masked("jdbc:postgresql://root:abc@secret123@" + HOST, "jdbc:postgresql://root:****@" + HOST);
        // a '/' ends the authority for libpq and Kensho (the password read as a port): masked all the same
        masked("jdbc:postgresql://root:abc/secret123@" + HOST, "jdbc:postgresql://root:****@" + HOST);
        masked("jdbc:postgresql://root:a?b@" + HOST, "jdbc:postgresql://root:****@" + HOST);
        masked("jdbc:postgresql://root:s3cr#et^123@" + HOST + "?sslmode=require", "jdbc:postgresql://root:****@" + HOST + "?sslmode=require");
        masked("postgresql://:s3cr et@" + HOST, "postgresql://:****@" + HOST);
        masked("https://bob:s3cr^et123@127.0.0.1:1/repo", "https://bob:****@127.0.0.1:1/repo");
        masked("https://bob:s3cr#et123@127.0.0.1:1/repo", "https://bob:****@127.0.0.1:1/repo");
        // a parameter's '@' is not the userinfo's
        masked("jdbc:postgresql://root:pw@" + HOST + "?user=bob@srv", "jdbc:postgresql://root:****@" + HOST + "?user=bob@srv");
        // two URLs in one line: each its own
        assertEquals("a //u:****@h1/db b //v:****@h2/db c", Credentials.mask("a //u:p 1@h1/db b //v:p@2@h2/db c"));
        // without the //, as pgjdbc quotes a host name it took whole
        assertEquals("cannot connect to postgres:****@db.example", Credentials.mask("cannot connect to postgres:hunter2@db.example"));
        assertEquals("cannot connect to postgres:****@db.example:5432", Credentials.mask("cannot connect to postgres:abc@secret123@db.example:5432"));
        assertEquals("cannot connect to postgres:****@db.example", Credentials.mask("cannot connect to postgres:a:b@db.example"));
    }

    /**
     * A password that holds "?key=" itself (We1rd@pw/x?a=b): an '@' after the parameters' start with a host after it
     * (host:port, host/db) ends the userinfo, where a parameter's own '@' (user=bob@srv) does not; passwordEnd says where.
     */
    @Test
    void aPasswordThatLooksLikeParametersEndsAtTheAtBeforeTheHost() {
        masked("jdbc:postgresql://postgres:We1rd@pw/x?a=b@" + HOST, "jdbc:postgresql://postgres:****@" + HOST);
        masked("jdbc:postgresql://postgres:We1rd@pw/x?y#z@" + HOST, "jdbc:postgresql://postgres:****@" + HOST);
        masked("jdbc:postgresql://postgres:a?b=c@[::1]:5432/db", "jdbc:postgresql://postgres:****@[::1]:5432/db");
        masked("jdbc:postgresql://postgres:a?b=c@db.example/x?sslmode=require", "jdbc:postgresql://postgres:****@db.example/x?sslmode=require");
        String url = "jdbc:postgresql://postgres:We1rd@pw/x?a=b@" + HOST;
        assertEquals(url.lastIndexOf('@'), Credentials.passwordEnd(url));
        String withParameter = "jdbc:postgresql://root:pw@" + HOST + "?user=bob@srv&sslmode=require";
        unchanged("jdbc:postgresql://root:****@" + HOST + "?user=bob@srv&sslmode=require");
        assertEquals(withParameter.indexOf('@'), Credentials.passwordEnd(withParameter));
        assertEquals(-1, Credentials.passwordEnd("jdbc:postgresql://" + HOST + "?user=bob@srv"));
        assertEquals(-1, Credentials.passwordEnd("jdbc:postgresql://bob@" + HOST));
        // a file under a home directory with an '@' is a parameter's
        String cert = "jdbc:postgresql://root:****@" + HOST + "?sslrootcert=/home/bob@corp.com/.postgresql/root.crt&sslmode=verify-full";
        unchanged(cert);
        assertEquals(cert.indexOf('@'), Credentials.passwordEnd(cert));
        masked("jdbc:postgresql://postgres:a?b=c@h1:5432,h2:5433/db", "jdbc:postgresql://postgres:****@h1:5432,h2:5433/db");
        // not over-masked: a host called pw, a database called password, a user called password
        unchanged("jdbc:postgresql://pw:5432/password?user=password");
        unchanged("cannot connect to pw:5432/password: unknown host pw");
    }

    /** A URL quoted as a Path (given to --password-file, report, -f) keeps one slash of its two: masked all the same. */
    @Test
    void aUrlQuotedAsAPathIsMasked() {
        assertEquals("--password-file jdbc:postgresql:/root:****@127.0.0.1:5432/db: cannot read (Is a directory)",
                Credentials.mask("--password-file jdbc:postgresql:/root:s3cr et123@127.0.0.1:5432/db: cannot read (Is a directory)"));
        assertEquals("--pg-bin /tmp/x/jdbc:postgresql:/root:****@127.0.0.1:5432/db is not a PostgreSQL bin directory",
                Credentials.mask("--pg-bin /tmp/x/jdbc:postgresql:/root:hunter2@127.0.0.1:5432/db is not a PostgreSQL bin directory"));
        assertEquals("postgresql:/root:****@" + HOST, Credentials.maskUrl("postgresql:/root:a@b/c@" + HOST));
        // paths and drive letters with a colon are no userinfo
        for (String text : List.of("C:/Users/bob/x:y", "file:/tmp/a.txt", "/tmp/kensho:/data/x@y", "jar:file:/x.jar!/a", "see C:/data/pw:1"))
            unchanged(text);
    }

    @Test
    void urlsWithoutCredentialsStayAsTheyAre() {
        for (String url : List.of("jdbc:postgresql://" + HOST, "jdbc:postgresql://" + HOST + "?user=bob@srv&sslmode=require",
                "jdbc:postgresql://[::1]:5432/db", "jdbc:postgresql://h1:5432,h2:5433/db?targetServerType=primary",
                "jdbc:postgresql:///test?host=/var/run/postgresql&port=5433", "jdbc:postgresql://%2Fvar%2Frun%2Fpostgresql/test",
                "jdbc:postgresql://bob@" + HOST, "https://repo1.maven.org/maven2")) {
            unchanged(url);
            assertEquals("cannot connect to " + url + " as bob@corp: refused", Credentials.mask("cannot connect to " + url + " as bob@corp: refused"));
            assertArrayEquals(new String[] {"--url", url, "--user", "bob@corp"}, Credentials.maskArgs(new String[] {"--url", url, "--user", "bob@corp"}));
        }
        String hint = "give --url jdbc:postgresql://HOST:PORT/DB (or --pg-bin DIR) to run it: see bob@corp";
        assertEquals(hint, Credentials.mask(hint));
        unchanged("at dev.kensho.core.server.JdbcTarget.connect(JdbcTarget.java:120)");
        unchanged(null);
    }

    @Test
    void passwordOptions() {
        assertArrayEquals(new String[] {"--password", "****", "--password=****", "-W=****", "--password-file", "/p"},
                Credentials.maskArgs(new String[] {"--password", "se cret", "--password=x y", "-W=z", "--password-file", "/p"}));
    }

    /** A query or script command kept in run.json or printed with -r: the password it sets is not. */
    @Test
    void aSqlPasswordLiteralIsMasked() {
        assertEquals("ALTER ROLE bob PASSWORD '****'", Credentials.maskSql("ALTER ROLE bob PASSWORD 'it''s s3cret'"));
        assertEquals("create user u with encrypted password '****' valid until 'infinity'",
                Credentials.maskSql("create user u with encrypted password 'pw' valid until 'infinity'"));
        assertEquals("ALTER ROLE bob PASSWORD '****' LOGIN", Credentials.maskSql("ALTER ROLE bob PASSWORD E'a\\'b' LOGIN"));
        assertEquals("ALTER ROLE bob PASSWORD '****';", Credentials.maskSql("ALTER ROLE bob PASSWORD $p$x'y$p$;"));
        // a plain $$ too: its tag group took no part in the match, and Java's back-reference to it failed
        assertEquals("ALTER USER u WITH ENCRYPTED PASSWORD '****' garbage;",
                Credentials.maskSql("ALTER USER u WITH ENCRYPTED PASSWORD $$DollarSecretBB2$$ garbage;"));
        assertEquals("ALTER ROLE bob PASSWORD NULL", Credentials.maskSql("ALTER ROLE bob PASSWORD NULL"));
        // other literal forms, a comment in the way, a quoted option name, and a typo the server's error quotes whole
        assertEquals("CREATE ROLE r PASSWORD '****'", Credentials.maskSql("CREATE ROLE r PASSWORD U&'S3cr\\0065tW'"));
        assertEquals("ALTER ROLE r PASSWORD/**/'****'", Credentials.maskSql("ALTER ROLE r PASSWORD/**/'S3cretX'"));
        assertEquals("CREATE USER MAPPING FOR x SERVER s OPTIONS (\"password\" '****')",
                Credentials.maskSql("CREATE USER MAPPING FOR x SERVER s OPTIONS (\"password\" 'S3cretI')"));
        assertEquals("ALTER ROLE r PASSWORD '****'", Credentials.maskSql("ALTER ROLE r PASSWORD 'S3cretJ"));
        assertEquals("ALTER ROLE r PASSWORD '****'", Credentials.maskSql("ALTER ROLE r PASSWORD B'0101'"));
        assertEquals("SHOW password_encryption", Credentials.maskSql("SHOW password_encryption"));
        assertEquals("SELECT * FROM dblink('host=h password=****', 'select 1') AS t(x int)",
                Credentials.maskSql("SELECT * FROM dblink('host=h password=hunter2', 'select 1') AS t(x int)"));
        assertEquals("SELECT dblink_connect('c', 'dbname=x password=**** user=u')",
                Credentials.maskSql("SELECT dblink_connect('c', 'dbname=x password=''p w'' user=u')"));
        assertEquals("SELECT dblink('postgresql://bob:****@db.example/x', 'select 1')",
                Credentials.maskSql("SELECT dblink('postgresql://bob:pw@db.example/x', 'select 1')"));
        assertArrayEquals(new String[] {"query", "-c", "ALTER ROLE bob PASSWORD '****'"},
                Credentials.maskArgs(new String[] {"query", "-c", "ALTER ROLE bob PASSWORD 'pw'"}));
        assertEquals("SELECT password_encryption FROM t WHERE aid = :aid", Credentials.maskSql("SELECT password_encryption FROM t WHERE aid = :aid"));
    }
    /**
     * Text of unknown source (what a server said, a setting's value): SQL's PASSWORD literal, a conninfo's password=
     * up to its end, a URL's userinfo; a password already masked keeps what follows it (a quote closing the argument).
     */
    @Test
    void textOfUnknownSourceIsMaskedAsSqlAndAsAUrl() {
        assertEquals("LINE 1: ALTER ROLE u PASSWORD '****' BOGUS;", Credentials.maskText("LINE 1: ALTER ROLE u PASSWORD 'Hunter2pw' BOGUS;"));
        assertEquals("host=10.0.0.9 user=rep password=**** (configuration file)",
                Credentials.maskText("host=10.0.0.9 user=rep password=Zz9pass (configuration file)"));
        assertEquals("ERROR:  invalid input syntax for type integer: \"postgresql://u:****@127.0.0.1/db\"",
                Credentials.maskText("ERROR:  invalid input syntax for type integer: \"postgresql://u:S3cretPW@127.0.0.1/db\""));
        assertEquals("Unknown option: '--password=****' (see 'bench pgbench run --help')",
                Credentials.mask("Unknown option: '--password=****' (see 'bench pgbench run --help')"));
        assertEquals("password=****", Credentials.mask("password=****abc"));
        // a line with neither an '@' nor the word password is passed as it is (a run's stderr: thousands a second)
        String plain = "client 3 got an error in command 1 (SQL) of script 0; ERROR:  duplicate key value (try 1/1)";
        org.junit.jupiter.api.Assertions.assertSame(plain, Credentials.maskText(plain));
        assertEquals("PGPASSWORD=****", Credentials.maskText("PGPASSWORD=x"));
        assertEquals("x PassWord=****", Credentials.maskText("x PassWord='p'"));
        assertEquals(null, Credentials.maskText(null));
    }

    /** A stream of lines (a run's stderr): each line masked as it ends, and what is left of one when flushed. */
    @Test
    void aMaskingStreamMasksLineByLine() {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        java.io.PrintStream to = new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8);
        java.io.PrintStream masking = Credentials.masking(to);
        masking.println("error: client 0 script 0 aborted in command 0 query 0: ERROR:  syntax error at or near \"BOGUS\"");
        masking.println("LINE 1: ALTER ROLE u PASSWORD 'Hunter2pw' BOGUS;");
        masking.print("starting vacuum...");
        masking.flush();
        assertTrue(bytes.toString(java.nio.charset.StandardCharsets.UTF_8).endsWith("\nstarting vacuum..."), "a flush passes a part-line");
        masking.print("end.\n");
        masking.print("dblink('host=h password=");
        masking.print("Zz9pass') AS t(x int)");
        masking.println();
        String out = bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertEquals("error: client 0 script 0 aborted in command 0 query 0: ERROR:  syntax error at or near \"BOGUS\"\n"
                + "LINE 1: ALTER ROLE u PASSWORD '****' BOGUS;\nstarting vacuum...end.\ndblink('host=h password=****') AS t(x int)\n", out);
    }

    /** What a psql user types: --pass and -W with the password after them are masked like --password. */
    @Test
    void aPasswordAfterPsqlsOptionsIsMasked() {
        assertArrayEquals(new String[] {"--pass", "****", "-W", "****", "-w", "x"},
                Credentials.maskArgs(new String[] {"--pass", "S3cretPW", "-W", "Hunter2pw", "-w", "x"}));
    }
}
