package dev.kensho.pgbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.pgbench.script.QueryMode;
import java.sql.Connection;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.jdbc.PreferQueryMode;

/** -M reaches pgjdbc: simple protocol for simple, never server-prepared for extended, named at once for prepared. */
@KenshoTarget
class ConnectorTest {
    @Test
    void modesMapToPgjdbcSettings(Target pg) throws Exception {
        PreferQueryMode[] expectMode = {PreferQueryMode.SIMPLE, PreferQueryMode.EXTENDED, PreferQueryMode.EXTENDED};
        int[] expectThreshold = {-1, 0, 1};
        for (QueryMode m : QueryMode.values()) {
            Connector connector = new Connector(pg, m);
            try (Connection c = connector.connect()) {
                PGConnection p = c.unwrap(PGConnection.class);
                assertEquals(expectMode[m.ordinal()], p.getPreferQueryMode(), m.toString());
                if (expectThreshold[m.ordinal()] >= 0) assertEquals(expectThreshold[m.ordinal()], p.getPrepareThreshold(), m.toString());
            }
        }
    }
}
