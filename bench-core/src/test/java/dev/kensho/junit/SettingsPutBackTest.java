package dev.kensho.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.kensho.core.server.Target;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * What a test applies to a shared server holds until the test ends; then the earlier values are back: a class's
 * own (applied in @BeforeAll) for its next test, the server's for the next class.
 */
class SettingsPutBackTest {
    static String show(Target pg, String name) throws SQLException {
        try (Connection c = pg.connect(); ResultSet rs = c.createStatement().executeQuery("SHOW " + name)) {
            rs.next();
            return rs.getString(1);
        }
    }

    static String workMem, checkpointTimeout;

    @KenshoTarget
    @ChangesServer
    @Order(1)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class Changes {
        @BeforeAll
        static void classWide(Target pg) throws SQLException {
            workMem = show(pg, "work_mem");
            checkpointTimeout = show(pg, "checkpoint_timeout");
            pg.control().apply(Map.of("work_mem", "9MB"));
        }

        @Test
        @Order(1)
        void changesForItself(Target pg) throws SQLException {
            // a user-level setting and a reload-level one
            pg.control().apply(Map.of("work_mem", "33MB", "checkpoint_timeout", "7min"));
            assertEquals("33MB", show(pg, "work_mem"));
            assertEquals("7min", show(pg, "checkpoint_timeout"));
        }

        @Test
        @Order(2)
        void findsTheClassValues(Target pg) throws SQLException {
            assertEquals("9MB", show(pg, "work_mem"));
            assertEquals(checkpointTimeout, show(pg, "checkpoint_timeout"));
        }
    }

    @KenshoTarget
    @Order(2)
    static class ComesAfter {
        @Test
        void findsTheServerValues(Target pg) throws SQLException {
            assertNotNull(workMem);
            assertEquals(workMem, show(pg, "work_mem"));
            assertEquals(checkpointTimeout, show(pg, "checkpoint_timeout"));
        }
    }

    @Test
    void aTestsSettingsAreItsOwn() {
        EngineExecutionResults r = EngineTestKit.engine("junit-jupiter")
                .configurationParameter("junit.jupiter.testclass.order.default", "org.junit.jupiter.api.ClassOrderer$OrderAnnotation")
                .selectors(selectClass(ComesAfter.class), selectClass(Changes.class))
                .execute();
        assertEquals(0, r.allEvents().failed().count(), r.allEvents().failed().list().toString());
        assertEquals(3, r.testEvents().succeeded().count());
    }
}
