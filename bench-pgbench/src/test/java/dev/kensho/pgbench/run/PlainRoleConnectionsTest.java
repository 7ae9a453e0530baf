package dev.kensho.pgbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kensho.core.KenshoException;
import dev.kensho.core.server.PlainRole;
import dev.kensho.core.server.Target;
import dev.kensho.junit.KenshoTarget;
import dev.kensho.junit.LocalPostgres;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The free-connection check as a role without pg_read_all_stats, to which other roles' backends show no backend_type. */
@KenshoTarget
class PlainRoleConnectionsTest {

    @Test
    void otherRolesConnectionsCountAsInUse(@LocalPostgres Target pg) throws Exception {
        try (PlainRole role = PlainRole.create(pg, "slots")) {
            List<Connection> held = new ArrayList<>();
            try {
                for (int i = 0; i < 5; i++) held.add(pg.connect(role.name()));
                try (Connection c = role.target().connect()) {
                    KenshoException e = assertThrows(KenshoException.class, () -> Driver.checkConnections(c, 10_000, 0, false, "-c"));
                    assertEquals(KenshoException.USAGE, e.exitCode());
                    Matcher m = Pattern.compile(", (\\d+) in use by others\\)").matcher(e.getMessage());
                    assertTrue(m.find(), e.getMessage());
                    // the five superuser connections at least (other tests may hold more), which the role sees only as
                    // "<insufficient privilege>" rows: left out, they made a full server look free
                    assertTrue(Integer.parseInt(m.group(1)) >= 5, e.getMessage());
                }
            } finally {
                for (Connection c : held) c.close();
            }
        }
    }
}
