package dev.kensho.pgbench.micro;

import dev.kensho.core.KenshoException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * PostgreSQL's encoding names (src/common/encnames.c), so that a misspelt one is a usage error before a server
 * starts rather than a failed CREATE DATABASE (exit 3) or a failed cell: the canonical names, server-side ones
 * first (a database can have only those), and the aliases the server also takes.
 */
final class PgEncodings {
    static final List<String> SERVER = List.of("SQL_ASCII", "EUC_JP", "EUC_CN", "EUC_KR", "EUC_TW", "EUC_JIS_2004", "UTF8",
            "MULE_INTERNAL", "LATIN1", "LATIN2", "LATIN3", "LATIN4", "LATIN5", "LATIN6", "LATIN7", "LATIN8", "LATIN9", "LATIN10",
            "WIN1256", "WIN1258", "WIN866", "WIN874", "KOI8R", "WIN1251", "WIN1252", "ISO_8859_5", "ISO_8859_6", "ISO_8859_7",
            "ISO_8859_8", "WIN1250", "WIN1253", "WIN1254", "WIN1255", "WIN1257", "KOI8U");
    static final List<String> CLIENT_ONLY = List.of("SJIS", "BIG5", "GBK", "UHC", "GB18030", "JOHAB", "SHIFT_JIS_2004");

    /** pg_encname_tbl's aliases that are not a canonical name cleaned (checked against pg_char_to_encoding of PostgreSQL 15). */
    private static final Map<String, String> ALIASES = Map.ofEntries(
            Map.entry("abc", "WIN1258"), Map.entry("alt", "WIN866"), Map.entry("iso88591", "LATIN1"), Map.entry("iso88592", "LATIN2"),
            Map.entry("iso88593", "LATIN3"), Map.entry("iso88594", "LATIN4"), Map.entry("iso88599", "LATIN5"),
            Map.entry("iso885910", "LATIN6"), Map.entry("iso885913", "LATIN7"), Map.entry("iso885914", "LATIN8"),
            Map.entry("iso885915", "LATIN9"), Map.entry("iso885916", "LATIN10"), Map.entry("koi8", "KOI8R"),
            Map.entry("mskanji", "SJIS"), Map.entry("shiftjis", "SJIS"), Map.entry("tcvn", "WIN1258"), Map.entry("tcvn5712", "WIN1258"),
            Map.entry("unicode", "UTF8"), Map.entry("vscii", "WIN1258"), Map.entry("win", "WIN1251"), Map.entry("win932", "SJIS"),
            Map.entry("win936", "GBK"), Map.entry("win949", "UHC"), Map.entry("win950", "BIG5"), Map.entry("windows932", "SJIS"),
            Map.entry("windows936", "GBK"), Map.entry("windows949", "UHC"), Map.entry("windows950", "BIG5"));

    private static final Map<String, String> BY_CLEAN_NAME = Stream.concat(
            Stream.concat(SERVER.stream(), CLIENT_ONLY.stream()).map(n -> Map.entry(clean(n), n)),
            Stream.concat(ALIASES.entrySet().stream(),
                    // windowsNNNN is winNNNN
                    Stream.concat(SERVER.stream(), CLIENT_ONLY.stream()).filter(n -> n.startsWith("WIN"))
                            .map(n -> Map.entry("windows" + n.substring(3), n))))
            .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a));

    private PgEncodings() {}

    /** As the server's clean_encoding_name: lower case, letters and digits only ("EUC-jp" is euc_jp). */
    private static String clean(String name) {
        return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    }

    /** The canonical name of any name the server accepts for client_encoding, else a usage error naming option. */
    static String client(String option, String name) {
        String n = BY_CLEAN_NAME.get(clean(name));
        if (n == null || name.isBlank()) throw KenshoException.usage(option + " " + name + ": not a PostgreSQL encoding (e.g. SJIS, UTF8, EUC_JP, LATIN1)");
        return n;
    }

    /** The canonical name of a server-side encoding (what CREATE DATABASE takes), else a usage error naming option. */
    static String server(String option, String name) {
        String n = client(option, name);
        if (!SERVER.contains(n)) {
            throw KenshoException.usage(option + " " + name + ": " + n + " is a client-only encoding; a database cannot have it (e.g. EUC_JP, UTF8)");
        }
        return n;
    }
}
