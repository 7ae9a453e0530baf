package dev.kensho.ssb;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One query Kensho times, with its text. The 13 SSB queries are the paper's (section 3.1), kept as
 * resources copied from ../shared/ssb-reference/sql/ (the study's listing has typos such as
 * d_date_key; these are the corrected texts).
 *
 * @param id  "q1.1" … "q4.3", or a JIT verification id such as "v1-sum"
 * @param sql the statement, without a trailing semicolon
 */
public record SsbQuery(String id, String sql) {
    /** Ids of the 13 SSB queries in the paper's order. */
    public static final List<String> IDS = List.of("q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3",
            "q3.1", "q3.2", "q3.3", "q3.4", "q4.1", "q4.2", "q4.3");

    /** The 13 SSB queries Q1.1–Q4.3. */
    public static List<SsbQuery> ssb() {
        List<SsbQuery> out = new ArrayList<>();
        for (String id : IDS) out.add(new SsbQuery(id, statement(resource("queries/" + id + ".sql"))));
        return out;
    }

    /** The queries named (ids as in {@link #IDS}); an unknown id is a usage error. */
    public static List<SsbQuery> ssb(List<String> ids) {
        if (ids == null || ids.isEmpty()) return ssb();
        List<SsbQuery> all = ssb();
        List<SsbQuery> out = new ArrayList<>();
        for (String id : ids) {
            String want = id.startsWith("q") ? id : "q" + id;
            out.add(all.stream().filter(q -> q.id.equals(want)).findFirst()
                    .orElseThrow(() -> dev.kensho.core.KenshoException.usage("unknown SSB query " + id + " (known: " + String.join(", ", IDS) + ")")));
        }
        return out;
    }

    static String resource(String name) {
        try (InputStream in = SsbQuery.class.getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException("resource dev/kensho/ssb/" + name + " missing from the jar");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Drops comment lines and the trailing semicolon. */
    static String statement(String text) {
        StringBuilder sb = new StringBuilder();
        for (String line : text.split("\n")) {
            if (line.strip().startsWith("--")) continue;
            sb.append(line).append('\n');
        }
        String s = sb.toString().strip();
        return s.endsWith(";") ? s.substring(0, s.length() - 1).strip() : s;
    }
}
