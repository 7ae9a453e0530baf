package dev.kensho.core.measure;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kensho.core.result.Json;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Runs EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) and parses what the studies look at. */
public final class Explain {
    private Explain() {}

    /**
     * EXPLAIN ANALYZE of sql on c: the statement runs, so an INSERT, UPDATE or DELETE changes the data (wrap it in a
     * transaction the caller rolls back).
     */
    public static ExplainResult analyze(Connection c, String sql) throws SQLException {
        return run(c, "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + QueryTimer.withoutTerminator(sql));
    }

    /**
     * Whether EXPLAIN takes the statement: a query, INSERT, UPDATE, DELETE, MERGE, EXECUTE, DECLARE, CREATE TABLE AS or
     * CREATE MATERIALIZED VIEW; not SHOW, SET, DO, CALL or other utility statements (EXPLAIN SHOW ... is a syntax error
     * that is not the statement's).
     */
    public static boolean explainable(String sql) {
        List<String> words = QueryTimer.topLevelWords(sql.strip());
        if (words.isEmpty()) return false;
        String first = words.get(0);
        if (java.util.Set.of("select", "values", "table", "with", "insert", "update", "delete", "merge", "execute", "declare").contains(first)) {
            return true;
        }
        return first.equals("create") && words.contains("as") && (words.get(1).equals("materialized") || words.contains("table"));
    }

    /** Plan only (no execution): for checking which plan a cell will use. */
    public static ExplainResult plan(Connection c, String sql) throws SQLException {
        return run(c, "EXPLAIN (FORMAT JSON) " + QueryTimer.withoutTerminator(sql));
    }

    private static ExplainResult run(Connection c, String explain) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(explain)) {
            rs.next();
            return parse(rs.getString(1));
        }
    }

    /**
     * Parses EXPLAIN's FORMAT JSON output (e.g. one read back from a results file).
     *
     * @throws IllegalArgumentException text is not JSON
     */
    public static ExplainResult parse(String text) {
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(text);
        } catch (IOException e) {
            throw new IllegalArgumentException("EXPLAIN output is not JSON: " + e.getMessage(), e);
        }
        JsonNode top = root.isArray() ? root.get(0) : root;
        List<ExplainResult.Gather> gathers = new ArrayList<>();
        List<String> types = new ArrayList<>();
        walk(top.path("Plan"), gathers, types);
        ExplainResult.Jit jit = null;
        JsonNode j = top.get("JIT");
        if (j != null) {
            JsonNode t = j.path("Timing");
            JsonNode o = j.path("Options");
            jit = new ExplainResult.Jit(j.path("Functions").asInt(), ms(t.get("Generation")), ms(t.get("Inlining")),
                    ms(t.get("Optimization")), ms(t.get("Emission")), ms(t.get("Total")),
                    o.path("Inlining").asBoolean(), o.path("Optimization").asBoolean());
        }
        return new ExplainResult(root, top.path("Planning Time").asDouble(), top.path("Execution Time").asDouble(),
                gathers, jit, types);
    }

    /** PostgreSQL 17 turned some JIT timings into objects with a Total. */
    private static double ms(JsonNode n) {
        if (n == null) return 0;
        if (n.isObject()) return n.path("Total").asDouble();
        return n.asDouble();
    }

    private static void walk(JsonNode plan, List<ExplainResult.Gather> gathers, List<String> types) {
        if (plan == null || plan.isMissingNode()) return;
        String type = plan.path("Node Type").asText();
        types.add(type);
        if (type.equals("Gather") || type.equals("Gather Merge")) {
            gathers.add(new ExplainResult.Gather(type, plan.path("Workers Planned").asInt(),
                    plan.path("Workers Launched").asInt(plan.path("Workers Planned").asInt() == 0 ? 0 : -1)));
        }
        for (JsonNode child : plan.path("Plans")) walk(child, gathers, types);
    }
}
