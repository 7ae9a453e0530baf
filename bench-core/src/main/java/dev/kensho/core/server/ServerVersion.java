package dev.kensho.core.server;

import dev.kensho.core.KenshoException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A server's version as server_version_num gives it (90624, 100023, 170006), and its release as PostgreSQL names it:
 * majors were two numbers before 10 (9.6), one since. What came with a release is asked of this, not tried and caught.
 */
public record ServerVersion(int num) {

    public static ServerVersion of(Target t) {
        return new ServerVersion(t.serverVersionNum());
    }

    public static ServerVersion of(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT current_setting('server_version_num')::int")) {
            rs.next();
            return new ServerVersion(rs.getInt(1));
        }
    }

    /** "9.6", "10", "17". */
    public String major() {
        return num < 100000 ? num / 10000 + "." + num / 100 % 100 : Integer.toString(num / 10000);
    }

    /** "9.6.24", "10.23", "17.6". */
    public String release() {
        return num < 100000 ? major() + "." + num % 100 : num / 10000 + "." + num % 10000;
    }

    /** Whether the server is of this major release or later (10 and up: the one-number majors). */
    public boolean atLeast(int major) {
        return num >= major * 10000;
    }

    /** One line for what this server cannot do: "parallel CREATE INDEX needs PostgreSQL 11 or later (this server is 10.23)". */
    public String lacks(String what, int since) {
        return what + " needs PostgreSQL " + since + " or later (this server is " + release() + ")";
    }

    /** Refuses (usage error, the line of {@link #lacks}) what this server cannot do. */
    public void require(String what, int since) {
        if (!atLeast(since)) throw KenshoException.usage(lacks(what, since));
    }
}
