package dev.kensho.pgbench.run;

import dev.kensho.core.KenshoException;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.WireLogin;
import dev.kensho.pgbench.script.Command;
import dev.kensho.pgbench.script.Script;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A run's logins made as libpq's (pgbench's), asked of the server before the clients connect: the wire engine's, tried
 * once and made to ask for UTF8 where Java would encode the scripts' text otherwise than the server; for the pgjdbc
 * engine, the settings each connection sets where pgjdbc's login differs from libpq's.
 */
final class LibpqLogin {
    private final Target target;
    private final RunConfig cfg;

    LibpqLogin(Target target, RunConfig cfg) {
        this.target = target;
        this.cfg = cfg;
    }

    /**
     * Tries the wire engine's login once and returns it; where it cannot be done here (a verifying sslmode), says so and
     * returns null: the run uses pgjdbc.
     */
    WireLogin wireLogin(Connection admin) throws SQLException {
        try {
            WireLogin asked = target.wireLogin();
            // the session's client_encoding from this login (client_encoding=EUC_JP in the URL's options on a UTF8
            // database was not looked at); one login, a second only where the text makes it ask for UTF8
            String encoding;
            WireConnection.UnsupportedEncoding unsupported = null;
            try (WireConnection w = WireConnection.open(asked, cfg.mode())) {
                encoding = w.clientEncoding();
            } catch (WireConnection.UnsupportedEncoding e) {
                encoding = e.encoding;
                unsupported = e;
            }
            WireLogin login = encodingSafe(admin, asked, encoding);
            if (login == asked && unsupported != null) throw unsupported;
            if (login != asked) WireConnection.open(login, cfg.mode()).close();
            return login;
        } catch (WireConnection.Unsupported e) {
            if (cfg.scripts().stream().anyMatch(s -> s.firstPipelineCommand() != null)) {
                throw KenshoException.target("--engine wire: " + e.getMessage() + "; a pipeline cannot run on the pgjdbc engine", e);
            }
            cfg.err().println("warning: --engine wire: " + e.getMessage() + "; this run uses the pgjdbc engine");
            return null;
        } catch (IOException e) {
            throw KenshoException.target("connection to the server failed (wire engine): " + Driver.oneLine(e), e);
        }
    }

    /**
     * The wire engine logs in as libpq, without a client_encoding, so that a non-UTF8 database converts nothing, as for
     * pgbench; it encodes the script's text with Java's charset of the session's client_encoding (the database's, unless
     * the login's options or a setting name another). Where that gives other bytes than the server's own conversion
     * (Java's EUC-JP puts 〜 where PostgreSQL has ～) or none (an emoji, or ① under EUC_JP, became "?"), the run stored
     * other text than the script's, silently: then the engine asks for UTF8 and the server converts, as for pgjdbc, and
     * says so. The texts are the scripts' SQL and -D values.
     */
    private WireLogin encodingSafe(Connection admin, WireLogin login, String encoding) throws SQLException {
        List<String[]> texts = new ArrayList<>();   // {where, text}
        for (Script s : cfg.scripts()) {
            for (Command c : s.commands()) {
                if (c.sql() != null && !ascii(c.sql())) texts.add(new String[] {s.name() + ":" + c.line(), c.sql()});
            }
        }
        for (String d : cfg.defines()) if (!ascii(d)) texts.add(new String[] {"-D " + d.substring(0, Math.max(0, d.indexOf('='))), d});
        if (texts.isEmpty() || encoding.equals("UTF8")) return login;
        String differs = null;
        java.nio.charset.Charset java;
        try {
            java = WireConnection.javaCharset(encoding);
        } catch (WireConnection.Unsupported e) {
            java = null;   // no Java charset: the server converts, or the login fails over to pgjdbc as before
        }
        for (String[] t : texts) {
            byte[] server = serverBytes(admin, t[1], encoding), client = java == null ? null : javaBytes(java, t[1]);
            if (server == null || client == null || !Arrays.equals(server, client)) {
                differs = t[0];
                break;
            }
        }
        if (differs == null) return login;
        if (encoding.equals("SQL_ASCII")) {
            // SQL_ASCII converts nothing: the script's UTF-8 is stored as sent, as pgbench's bytes are. But the session is
            // UTF8 then, whose input the server checks: the database's own bytes that are not UTF-8 (Latin-1 read back by
            // \gset) fail where pgbench sends them back as they are. Said, and noted: it had been silent
            cfg.err().println("warning: --engine wire: " + differs + " holds text that is not ASCII, and the database is SQL_ASCII: this run's"
                    + " sessions are UTF8, so the server stores the script's UTF-8 as it is (as pgbench's bytes), but refuses text that is"
                    + " not UTF-8 (the database's own Latin-1 bytes sent back from a \\gset), which pgbench sends as it is");
        } else {
            cfg.err().println("warning: --engine wire: " + differs + " holds text that " + (java == null ? "Java has no charset for in "
                    + encoding : "Java's " + java.name() + " would send otherwise than the server's " + encoding + " conversion")
                    + ": this run sends UTF8, which the server converts (as for pgjdbc; pgbench sends a file's bytes as they are)");
        }
        java.util.Map<String, String> startup = new java.util.LinkedHashMap<>(login.startupParameters());
        startup.put("client_encoding", "UTF8");
        return new WireLogin(login.host(), login.port(), login.database(), login.user(), login.password(), startup,
                login.sslMode(), login.pgjdbcOnly(), login.timeoutSeconds());
    }

    private static boolean ascii(String s) {
        for (int i = 0; i < s.length(); i++) if (s.charAt(i) >= 0x80) return false;
        return true;
    }

    /** The text in this encoding as the server converts it; null where it has no equivalent there. */
    private static byte[] serverBytes(Connection admin, String text, String encoding) {
        // admin is in autocommit: a refused conversion ends its own statement, nothing else
        try (java.sql.PreparedStatement ps = admin.prepareStatement("SELECT convert_to(?, ?)")) {
            ps.setString(1, text);
            ps.setString(2, encoding);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBytes(1);
            }
        } catch (SQLException e) {
            return null;   // "character with byte sequence ... has no equivalent in encoding"
        }
    }

    /** The text in Java's charset; null where a character has none there (String.getBytes would put "?"). */
    private static byte[] javaBytes(java.nio.charset.Charset cs, String text) {
        try {
            java.nio.ByteBuffer b = cs.newEncoder().encode(java.nio.CharBuffer.wrap(text));
            return Arrays.copyOfRange(b.array(), b.arrayOffset() + b.position(), b.arrayOffset() + b.limit());
        } catch (java.nio.charset.CharacterCodingException e) {
            return null;
        }
    }

    /**
     * pgjdbc logs in with the JVM's TimeZone and DateStyle ISO, MDY, where libpq (pgbench, the wire engine) asks for neither
     * and gets the server's, the database's or the role's: now()::date, date_trunc and a date written '01/02/2026' then
     * came out otherwise than in pgbench. A login as libpq's tells those, and where they differ each client connection
     * sets them (one round trip, in -C's connection time too): the TimeZone as it is, of DateStyle the order of day and
     * month only, since pgjdbc refuses any output style but ISO (said once).
     */
    List<String> pgjdbcSettings(Connection admin) throws SQLException {
        String tz, ds;
        try (WireConnection libpq = WireConnection.open(target.wireLogin(), cfg.mode())) {
            tz = libpq.timeZone();
            ds = libpq.dateStyle();
        } catch (IOException e) {
            return List.of();   // a login the wire engine cannot make (GSSAPI, a verified certificate): pgjdbc's stay
        }
        String pgjdbcTz, pgjdbcDs;
        String[] pgjdbcs = dev.kensho.core.server.OwnStatements.run(admin, st -> {
            try (ResultSet rs = st.executeQuery("SELECT current_setting('TimeZone'), current_setting('DateStyle')")) {
                rs.next();
                return new String[] {rs.getString(1), rs.getString(2)};
            }
        });
        pgjdbcTz = pgjdbcs[0];
        pgjdbcDs = pgjdbcs[1];
        List<String> set = new ArrayList<>();
        if (tz != null && !sameZone(tz, pgjdbcTz)) set.add("SET TimeZone TO " + dev.kensho.core.server.SqlIdentifier.literal(tz));
        if (ds != null && !ds.equals(pgjdbcDs)) {
            String[] style = ds.split(",\\s*", 2);   // "SQL, DMY": output style, field order
            if (!style[0].equalsIgnoreCase("ISO")) {
                cfg.err().println(Driver.DATE_STYLE_WARNING + ds + "; the pgjdbc engine prints dates in ISO "
                        + "(pgjdbc requires it), --engine wire as pgbench does");
            }
            if (style.length == 2 && !pgjdbcDs.endsWith(style[1])) set.add("SET DateStyle TO 'ISO, " + style[1] + "'");
        }
        return set;
    }

    /** The same name, or two names of one zone's rules (UTC and Etc/UTC): no statement per connection for nothing. */
    static boolean sameZone(String a, String b) {
        if (a.equals(b)) return true;
        try {
            return java.time.ZoneId.of(a).getRules().equals(java.time.ZoneId.of(b).getRules());
        } catch (java.time.DateTimeException notJavas) {
            return false;   // a POSIX zone ('<+09>-09') or one Java lacks: set it
        }
    }
}
