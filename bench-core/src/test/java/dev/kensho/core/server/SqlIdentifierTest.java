package dev.kensho.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kensho.junit.KenshoTarget;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The statements Kensho tells a user to run name roles and schemas as the server's quote_ident() would. */
@KenshoTarget
class SqlIdentifierTest {

    @Test
    void namesAreQuotedAsQuoteIdentQuotesThem(Target pg) throws Exception {
        List<String> names = new ArrayList<>(List.of("bench", "_x1", "select", "user", "Mixed Role", "kx_he_ユーザー 1", "a\"b", "1abc",
                "public", "between", "left", "json_table", "merge_action", "abc$"));
        try (Connection c = pg.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT word FROM pg_get_keywords() WHERE catcode <> 'U'")) {
            while (rs.next()) names.add(rs.getString(1));   // every keyword the server quotes, whatever its version
        }
        List<String> ours = new ArrayList<>(), server = new ArrayList<>();
        try (Connection c = pg.connect(); PreparedStatement ps = c.prepareStatement("SELECT quote_ident(?)")) {
            for (String n : names) {
                ps.setString(1, n);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    server.add(rs.getString(1));
                }
                ours.add(SqlIdentifier.quoteIdent(n));
            }
        }
        assertEquals(server, ours);
        assertEquals("\"My TS\"", SqlIdentifier.quoted("My TS"));
        assertEquals("\"bench\"", SqlIdentifier.quoted("bench"));
    }

    /**
     * A literal reads back as its value with standard_conforming_strings on and off: quotes doubled alone let a --matrix
     * value x\' ; COPY ... TO PROGRAM ... run the program where it was off.
     */
    @Test
    void literalsReadBackWhateverStandardConformingStrings(Target pg) throws Exception {
        List<String> values = List.of("plain", "it's", "x\\' ; SELECT 1; --", "\\\\", "a\\nb", "", "ユーザー", "$$");
        for (String scs : List.of("on", "off")) {
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("SET standard_conforming_strings = " + scs);
                for (String v : values) {
                    try (ResultSet rs = s.executeQuery("SELECT " + SqlIdentifier.literal(v))) {
                        rs.next();
                        assertEquals(v, rs.getString(1), "standard_conforming_strings " + scs);
                    }
                    s.execute("SET application_name TO " + SqlIdentifier.literal(v.replace("ー", "")));
                }
            }
        }
    }
}
