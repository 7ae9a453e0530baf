package dev.kensho.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.kensho.core.server.Target;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/** A suite run with JUnit's parallel execution, as CI runs it: tests that change the shared server run alone. */
class ParallelExecutionTest {

    static String workMem(Target pg) throws SQLException {
        try (Connection c = pg.connect(); ResultSet rs = c.createStatement().executeQuery("SHOW work_mem")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** Measures under whatever the server has, and must see the same all through. */
    @KenshoTarget
    static class Measures {
        @RepeatedTest(4)
        void settingsHoldDuringTheTest(Target pg) throws Exception {
            String before = workMem(pg);
            Thread.sleep(150);
            assertEquals(before, workMem(pg));
        }
    }

    @KenshoTarget
    @ChangesServer
    static class ChangesSettings {
        @RepeatedTest(4)
        void appliesItsOwn(Target pg, RepetitionInfo repetition) throws Exception {
            // a value of its own per repetition, none the server's default: a failure can be run again as it was
            String mine = (20 + 97 * repetition.getCurrentRepetition()) + "MB";
            pg.control().apply(Map.of("work_mem", mine));
            Thread.sleep(150);
            assertEquals(mine, workMem(pg));
        }
    }

    @KenshoTarget
    static class Restarts {
        @ChangesServer
        @RepeatedTest(2)
        void restarts(Target pg) throws Exception {
            String before = workMem(pg);
            pg.control().restart();
            // no other test ran beside it to change the setting, and the restart keeps what was applied
            assertEquals(before, workMem(pg));
        }
    }

    @Test
    void testsThatChangeTheServerDoNotRunBesideOthers() {
        EngineExecutionResults r = EngineTestKit.engine("junit-jupiter")
                .configurationParameter("junit.jupiter.execution.parallel.enabled", "true")
                .configurationParameter("junit.jupiter.execution.parallel.mode.default", "concurrent")
                .configurationParameter("junit.jupiter.execution.parallel.mode.classes.default", "concurrent")
                .configurationParameter("junit.jupiter.execution.parallel.config.strategy", "fixed")
                .configurationParameter("junit.jupiter.execution.parallel.config.fixed.parallelism", "4")
                .selectors(selectClass(Measures.class), selectClass(ChangesSettings.class), selectClass(Restarts.class))
                .execute();
        assertEquals(0, r.allEvents().failed().count(), r.allEvents().failed().list().toString());
        assertEquals(4 + 4 + 2, r.testEvents().succeeded().count());
    }
}
