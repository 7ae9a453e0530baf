package dev.kensho.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Gives a test class {@link dev.kensho.core.server.Target} parameters: the embedded server by
 * default (one per JVM and major version, shared by every test), the server in KENSHO_TEST_URL when
 * set (with KENSHO_TEST_USER, KENSHO_TEST_PASSWORD_FILE, KENSHO_TEST_RESTART_COMMAND), or a Testcontainers server when
 * KENSHO_TEST_TESTCONTAINERS is set and Docker answers.
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
 * <p>The servers are shared: a setting one test applies ({@code pg.control().apply(...)}) holds until the test ends;
 * then the value it had before is applied back (for a constructor's or {@code @BeforeAll}'s Target, when the class
 * ends). The pools a test makes ({@code pg.pool(n)}) close when it ends (a constructor's or {@code @BeforeAll}'s when
 * the class ends); closing a Target it was given closes only those and puts back the settings it applied, and the
 * server stops when the test plan ends (with JUnit 5.13 or later, when the launcher session ends: Surefire's reused
 * forks with forkCount above 1 run each class as a plan of its own, and the server is not restarted for each). A target absent from this machine skips the test with the reason (nothing
 * answers at a {@link LocalPostgres} address; no Docker engine, or no Testcontainers on the classpath, for
 * KENSHO_TEST_TESTCONTAINERS); one that is there but cannot be used fails it with the reason (a server that refuses the
 * login or has no such database, KENSHO_TEST_URL's included; an embedded server that does not start; a
 * {@link PgVersion} zonky never built): a misconfigured suite must not pass by skipping.
 *
 * <p>Under JUnit's parallel execution the classes share the servers at the same time. Each holds
 * {@link #SERVER} for reading; a class or test that changes a server (apply, restart) says so with
 * {@link ChangesServer}, and runs alone.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(KenshoTargetExtension.class)
@ResourceLock(value = KenshoTarget.SERVER, mode = ResourceAccessMode.READ)
public @interface KenshoTarget {
    /** The JUnit resource the shared servers are, for {@code @ResourceLock} of one's own. */
    String SERVER = "dev.kensho.junit.server";
}
