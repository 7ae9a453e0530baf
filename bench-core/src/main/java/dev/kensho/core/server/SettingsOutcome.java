package dev.kensho.core.server;

import java.util.List;
import java.util.Map;

/**
 * What {@link ServerControl#apply} did.
 *
 * @param applied   settings now in effect (name → value)
 * @param restarted true when the server was restarted to get there
 * @param refused   settings that could not be applied (name → reason); a measurement that needs
 *                  them must be skipped and say why
 * @param actions   human-readable lines for the run log ("restarted: max_worker_processes 8 → 16")
 */
public record SettingsOutcome(Map<String, String> applied, boolean restarted,
                              Map<String, String> refused, List<String> actions) {

    public boolean ok() {
        return refused.isEmpty();
    }

    /** One line naming every refused setting and why; empty when all were applied. */
    public String refusalReason() {
        StringBuilder sb = new StringBuilder();
        refused.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : "; ").append(k).append(": ").append(v));
        return sb.toString();
    }
}
