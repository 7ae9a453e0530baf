package dev.kensho.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives a test class {@link dev.kensho.core.server.Target} parameters: the embedded server by
 * default (one per JVM and major version, shared by every test), the server in KENSHO_TEST_URL when
 * set, or a Testcontainers server when KENSHO_TEST_TESTCONTAINERS is set and Docker answers.
 *
 * <pre>
 * &#64;KenshoTarget
 * class MyBenchTest {
 *     &#64;Test void runs(Target pg) { ... }
 *     &#64;Test void onSixteen(&#64;PgVersion(16) Target pg) { ... }
 *     &#64;Test void jit(&#64;LocalPostgres Target pg) { ... }   // 127.0.0.1:5432, skipped where absent
 * }
 * </pre>
 *
 * <p>The servers are shared: a setting one test applies ({@code pg.control().apply(...)}) holds for
 * the tests after it until changed back, and a test must not close a Target it was given (the
 * server stops when the test plan ends). A target that cannot be had here skips the test with the
 * reason instead of failing it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(KenshoTargetExtension.class)
public @interface KenshoTarget {
}
