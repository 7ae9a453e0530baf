package dev.kensho.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A password given in a URL is in no error line, whoever wrote the message: Kensho, picocli or the JDK. */
class CredentialsInErrorsTest {

    @Test
    void aRepositoryUrlWithAnUnencodedPasswordIsAOneLineUsageError() {
        String before = System.getProperty("kensho.mavenRepository");
        try {
            for (String pw : new String[] {"s3cr^et123", "s3cr et123", "s3cr#et123"}) {
                // the property stands for KENSHO_MAVEN_REPOSITORY (an environment variable a test cannot set)
                System.setProperty("kensho.mavenRepository", "https://bob:" + pw + "@127.0.0.1:1/repo");
                CommandRun r = CommandRun.of("env", "--pg-version", "12.2");
                assertEquals(2, r.exit(), r.err());
                assertEquals(1, r.err().strip().lines().count(), r.err());
                assertTrue(r.err().startsWith("bench: KENSHO_MAVEN_REPOSITORY is not a repository URL Kensho can use ("), r.err());
                assertTrue(r.err().contains("https://bob:****@127.0.0.1:1/repo; percent-encode"), r.err());
                assertFalse(r.err().contains("et123") || r.out().contains("et123"), r.err());
            }
        } finally {
            if (before == null) System.clearProperty("kensho.mavenRepository"); else System.setProperty("kensho.mavenRepository", before);
        }
    }

    @Test
    void picocliQuotingARefusedArgumentQuotesItMasked() {
        CommandRun r = CommandRun.of("pgbench", "run", "-c", "jdbc:postgresql://root:s3cr et123@127.0.0.1:5432/db");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("root:****@127.0.0.1:5432/db"), r.err());
        assertFalse(r.err().contains("et123"), r.err());
    }
    /**
     * A URL given where a file, a directory or a variable was expected: its message quoted it as a Path (one slash of
     * the two, which the masker did not know) or unmasked (-D), and so the password.
     */
    @Test
    void aUrlGivenInThePlaceOfAFileOrAVariableIsQuotedMasked() {
        String url = "jdbc:postgresql://root:s3cr et123@127.0.0.1:1/db";
        String[][] commands = {
                {"env", "--url", "jdbc:postgresql://127.0.0.1:1/db", "--password-file", url},
                {"report", url},
                {"compare", url},
                {"query", "-f", url, "--url", "jdbc:postgresql://127.0.0.1:1/db"},
                {"pgbench", "run", "--resume", url},
                {"pgbench", "run", "-D", url, "-T", "1"}};
        for (String[] command : commands) {
            CommandRun r = CommandRun.of(command);
            assertEquals(2, r.exit(), String.join(" ", command) + ": " + r.err());
            assertTrue(r.err().contains("root:****@127.0.0.1:1/db"), r.err());
            assertFalse(r.err().contains("et123") || r.out().contains("et123"), r.err());
        }
    }
    /**
     * What a psql user types, the password after --password, --pass or -W (none of them options here): picocli quotes
     * the refused arguments, and the pgbench hint read the password as a database name; both printed it.
     */
    @Test
    void aPasswordAfterAPsqlOptionIsQuotedMasked() {
        for (String option : new String[] {"--password", "--pass", "-W"}) {
            CommandRun r = CommandRun.of("pgbench", "run", option, "S3cretPW", "-T", "1");
            assertEquals(2, r.exit(), r.err());
            assertEquals("bench: Unknown options: '" + option + "', '****' (see 'bench pgbench run --help')", r.err().strip());
        }
        CommandRun r = CommandRun.of("pgbench", "run", "--password=S3cretPW", "-T", "1");
        assertEquals("bench: Unknown option: '--password=****' (see 'bench pgbench run --help')", r.err().strip());
    }
}
