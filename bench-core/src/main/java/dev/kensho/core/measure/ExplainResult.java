package dev.kensho.core.measure;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * A parsed EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON).
 *
 * @param json          the server's JSON, kept with the trial
 * @param planningMs    Planning Time
 * @param executionMs   Execution Time
 * @param gathers       every Gather / Gather Merge node with its planned and launched workers
 * @param jit           JIT facts, or null when JIT did not run
 * @param nodeTypes     node types in plan order (for "did this cell use the intended plan")
 */
public record ExplainResult(JsonNode json, double planningMs, double executionMs, List<Gather> gathers,
                            Jit jit, List<String> nodeTypes) {

    /** One Gather or Gather Merge node. */
    public record Gather(String nodeType, int planned, int launched) { }

    /** The JIT block; times in ms (Generation includes deform on PostgreSQL 17+). */
    public record Jit(int functions, double generationMs, double inliningMs, double optimizationMs,
                      double emissionMs, double totalMs, boolean inlining, boolean optimization) { }

    public int workersPlanned() {
        return gathers.stream().mapToInt(Gather::planned).sum();
    }

    public int workersLaunched() {
        return gathers.stream().mapToInt(Gather::launched).sum();
    }

    public boolean uses(String nodeType) {
        return nodeTypes.contains(nodeType);
    }
}
