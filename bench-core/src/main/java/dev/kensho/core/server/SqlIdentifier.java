package dev.kensho.core.server;

import java.util.Set;

/** SQL identifiers and literals as Kensho writes them into statements and into the statements it tells a user to run. */
public final class SqlIdentifier {
    private SqlIdentifier() {}

    /**
     * The words quote_ident() quotes: PostgreSQL's reserved, type/function-name and column-name keywords (18's list;
     * a later keyword here or missing costs a pair of quotes, never a wrong statement, since the others are quoted too).
     */
    private static final Set<String> KEYWORDS = Set.of(
            "all", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric", "both", "case", "cast", "check",
            "collate", "column", "constraint", "create", "current_catalog", "current_date", "current_role", "current_time",
            "current_timestamp", "current_user", "default", "deferrable", "desc", "distinct", "do", "else", "end", "except",
            "false", "fetch", "for", "foreign", "from", "grant", "group", "having", "in", "initially", "intersect", "into",
            "lateral", "leading", "limit", "localtime", "localtimestamp", "not", "null", "offset", "on", "only", "or", "order",
            "placing", "primary", "references", "returning", "select", "session_user", "some", "symmetric", "system_user",
            "table", "then", "to", "trailing", "true", "union", "unique", "user", "using", "variadic", "when", "where",
            "window", "with",
            "authorization", "binary", "collation", "concurrently", "cross", "current_schema", "freeze", "full", "ilike",
            "inner", "is", "isnull", "join", "left", "like", "natural", "notnull", "outer", "overlaps", "right", "similar",
            "tablesample", "verbose",
            "between", "bigint", "bit", "boolean", "char", "character", "coalesce", "dec", "decimal", "exists", "extract",
            "float", "greatest", "grouping", "inout", "int", "integer", "interval", "json", "json_array", "json_arrayagg",
            "json_exists", "json_object", "json_objectagg", "json_query", "json_scalar", "json_serialize", "json_table",
            "json_value", "least", "merge_action", "national", "nchar", "none",
            "normalize", "nullif", "numeric", "out", "overlay", "position", "precision", "real", "row", "setof", "smallint",
            "substring", "time", "timestamp", "treat", "trim", "values", "varchar", "xmlattributes", "xmlconcat",
            "xmlelement", "xmlexists", "xmlforest", "xmlnamespaces", "xmlparse", "xmlpi", "xmlroot", "xmlserialize", "xmltable");

    /** Always double-quoted, embedded quotes doubled: what libpq's PQescapeIdentifier gives ("My TS" stays "My TS"). */
    public static String quoted(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /**
     * A string literal that reads back as the value whatever the session's standard_conforming_strings: quotes doubled,
     * and where there is a backslash an escape string with it doubled. '...' with quotes doubled alone was SQL injection where that setting is off
     * (a --matrix value x\' ; COPY ... TO PROGRAM ran the program), which a database or a URL's options may set.
     */
    public static String literal(String value) {
        // without a backslash, doubled quotes read back alike either way: the plain form, as a user would write it
        if (value.indexOf('\\') < 0) return "'" + value.replace("'", "''") + "'";
        return "E'" + value.replace("\\", "\\\\").replace("'", "''") + "'";
    }

    /**
     * As quote_ident() writes it: bare where the name reads back as itself (lower case, no keyword), quoted otherwise.
     * For the statements Kensho tells a user to run: "GRANT CREATE ON SCHEMA select TO Mixed Role" was not SQL.
     */
    public static String quoteIdent(String name) {
        boolean plain = !name.isEmpty() && (name.charAt(0) == '_' || (name.charAt(0) >= 'a' && name.charAt(0) <= 'z'));
        for (int i = 0; plain && i < name.length(); i++) {
            char c = name.charAt(i);
            plain = c == '_' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        }
        return plain && !KEYWORDS.contains(name) ? name : quoted(name);
    }
}
