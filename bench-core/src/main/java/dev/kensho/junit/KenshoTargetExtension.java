package dev.kensho.junit;

import dev.kensho.core.KenshoException;
import dev.kensho.core.KenshoVersion;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Resolves {@link Target} parameters (see {@link KenshoTarget}). Servers are started once per JVM
 * and key, kept in the root store and stopped when the test plan ends, because starting
 * PostgreSQL per test would dominate the suite's time.
 *
 * <p>A target that cannot be had here (no server at a {@link LocalPostgres} URL, an embedded server off Linux, no
 * Docker engine for KENSHO_TEST_TESTCONTAINERS) skips the test, or the class when its constructor or lifecycle
 * methods ask for it, with the reason. That is decided as a condition before the test runs: JUnit reports
 * an abort thrown while resolving a parameter as an error, not as a skip.
 */
public final class KenshoTargetExtension implements ParameterResolver, ExecutionCondition,
        org.junit.jupiter.api.extension.TestExecutionExceptionHandler, org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(KenshoTargetExtension.class);
    /** The reasons printed so far: Kensho's own build prints every skip (its test jar's SkipReasons), these once. */
    static final java.util.Set<String> PRINTED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * A test's own call that Kensho refuses (pg.control().restart() on a KENSHO_TEST_URL server) names what the suite set,
     * as the errors met while opening the target do: "without --restart-command" meant nothing to a suite that sets
     * KENSHO_TEST_RESTART_COMMAND, or @LocalPostgres restartCommand.
     */
    @Override
    public void handleTestExecutionException(ExtensionContext e, Throwable t) throws Throwable {
        throw suitesWords(e, t);
    }

    // the same in the lifecycle methods, where a suite restarts or reconfigures its server as often
    @Override
    public void handleBeforeAllMethodExecutionException(ExtensionContext e, Throwable t) throws Throwable {
        throw suitesWords(e, t);
    }

    @Override
    public void handleBeforeEachMethodExecutionException(ExtensionContext e, Throwable t) throws Throwable {
        throw suitesWords(e, t);
    }

    @Override
    public void handleAfterEachMethodExecutionException(ExtensionContext e, Throwable t) throws Throwable {
        throw suitesWords(e, t);
    }

    @Override
    public void handleAfterAllMethodExecutionException(ExtensionContext e, Throwable t) throws Throwable {
        throw suitesWords(e, t);
    }

    /** A KenshoException as the suite's settings name things: @LocalPostgres's attributes, else the KENSHO_TEST_* variables. */
    private static Throwable suitesWords(ExtensionContext e, Throwable t) {
        if (!(t instanceof KenshoException k)) return t;
        // the test's own Target parameter decides; a test without one (or a lifecycle method) goes by its class's
        List<Parameter> own = e.getTestMethod().map(m -> java.util.Arrays.stream(m.getParameters()).filter(p -> p.getType() == Target.class)
                .toList()).orElse(List.of());
        boolean local = own.isEmpty() ? e.getTestClass().map(KenshoTargetExtension::asksLocal).orElse(false)
                : own.stream().anyMatch(p -> p.isAnnotationPresent(LocalPostgres.class));
        String url = System.getenv("KENSHO_TEST_URL");
        if (local) return k.naming(LOCAL_NAMES);
        if (url != null && !url.isBlank()) return k.naming(ENVIRONMENT_NAMES);
        return t;
    }

    /** Whether the class's constructor or lifecycle methods take a @LocalPostgres target. */
    private static boolean asksLocal(Class<?> c) {
        List<Executable> asking = new ArrayList<>(List.of(c.getDeclaredConstructors()));
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) asking.addAll(List.of(k.getDeclaredMethods()));
        return asking.stream().anyMatch(x -> java.util.Arrays.stream(x.getParameters())
                .anyMatch(p -> p.isAnnotationPresent(LocalPostgres.class) && p.getType() == Target.class));
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext e) {
        List<Executable> asking = new ArrayList<>();
        if (e.getTestMethod().isPresent()) {
            asking.add(e.getTestMethod().get());
        } else if (e.getTestClass().isPresent()) {
            Class<?> c = e.getTestClass().get();
            asking.addAll(List.of(c.getDeclaredConstructors()));
            for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
                for (Method m : k.getDeclaredMethods()) {
                    if (m.isAnnotationPresent(BeforeAll.class) || m.isAnnotationPresent(BeforeEach.class)
                            || m.isAnnotationPresent(AfterEach.class) || m.isAnnotationPresent(AfterAll.class)) {
                        asking.add(m);
                    }
                }
            }
        }
        for (Executable x : asking) {
            for (Parameter p : x.getParameters()) {
                if (p.getType() != Target.class) continue;
                String reason = unavailable(p, e);
                if (reason != null) {
                    System.err.println("SKIPPED: " + reason);
                    PRINTED.add(reason);
                    return ConditionEvaluationResult.disabled(reason);
                }
            }
        }
        return ConditionEvaluationResult.enabled("every Target it asks for is available");
    }

    /** Why this Target parameter cannot be had here, or null. */
    private String unavailable(Parameter p, ExtensionContext e) {
        LocalPostgres local = p.getAnnotation(LocalPostgres.class);
        if (local != null) return local(local, e) instanceof String reason ? reason : null;
        String url = System.getenv("KENSHO_TEST_URL");
        if (p.isAnnotationPresent(PgVersion.class) || (url == null || url.isBlank()) && !containersAsked()) {
            // an embedded server: a Mac's or Windows' suite skips, as one without Docker does for containers
            String why = TargetSpec.managedUnavailableReason();
            return why == null ? null : "embedded PostgreSQL target skipped: " + why;
        }
        if (!containersAsked()) return null;
        String reason = TargetSpec.containersUnavailableReason();
        return reason == null ? null : "Testcontainers target skipped: " + reason;
    }

    /**
     * The suite's remote server as the environment gives it: KENSHO_TEST_URL and KENSHO_TEST_USER, and, as the
     * command line's --password-file and --restart-command, KENSHO_TEST_PASSWORD_FILE and KENSHO_TEST_RESTART_COMMAND
     * (without which no test can restart it or change a postmaster-level setting).
     */
    static TargetSpec remote(Map<String, String> env) {
        TargetSpec s = new TargetSpec().url(env.get("KENSHO_TEST_URL")).user(env.get("KENSHO_TEST_USER"));
        String restart = env.get("KENSHO_TEST_RESTART_COMMAND");
        if (restart != null && !restart.isBlank()) s.restartCommand(restart);
        String password = env.get("KENSHO_TEST_PASSWORD_FILE");
        if (password != null && !password.isBlank()) s.passwordFile(java.nio.file.Path.of(password));
        return s;
    }

    /** The command line's options as the suite's environment gives them: its errors name the variables. */
    static final Map<String, String> ENVIRONMENT_NAMES = Map.of("--url", "KENSHO_TEST_URL", "--user", "KENSHO_TEST_USER",
            "--password-file", "KENSHO_TEST_PASSWORD_FILE", "--restart-command", "KENSHO_TEST_RESTART_COMMAND",
            "--testcontainers", "KENSHO_TEST_TESTCONTAINERS");

    /** The server {@link #remote} describes, opened; an error names the environment variables, not the options. */
    static Target openRemote(Map<String, String> env) {
        try {
            return remote(env).open();
        } catch (KenshoException e) {
            throw e.naming(ENVIRONMENT_NAMES);
        }
    }

    /**
     * The image KENSHO_TEST_TESTCONTAINERS names, or null for the default: CI files write a switch as =1 or =true,
     * which must not be pulled as an image called "1".
     */
    static String containerImage(String env) {
        if (env == null) return null;
        String v = env.strip();
        return v.isEmpty() || v.matches("(?i)1|true|yes|on") ? null : v;
    }

    private static boolean containersAsked() {
        String url = System.getenv("KENSHO_TEST_URL");
        return (url == null || url.isBlank()) && containersOn(System.getenv("KENSHO_TEST_TESTCONTAINERS"));
    }

    /**
     * Whether the variable asks for a container: set, and not a way of saying no. A CI matrix's "false", "0" or an empty
     * value had asked for one, so the whole suite skipped where no Docker engine runs (or pulled an image named "false").
     */
    static boolean containersOn(String env) {
        return env != null && !env.isBlank() && !env.strip().matches("(?i)0|false|no|off");
    }

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
        return p.getParameter().getType() == Target.class;
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext e) {
        Optional<LocalPostgres> local = p.findAnnotation(LocalPostgres.class);
        if (local.isPresent()) {
            Object t = local(local.get(), e);
            // Only reached when the condition did not run (extension registered on a parameter alone).
            if (t instanceof String reason) throw new ParameterResolutionException(reason);
            if (t instanceof KenshoException refused) {
                // a missing password file or a bad URL is the suite's own mistake, not the server's refusal
                String at = dev.kensho.core.Credentials.maskUrl(local.get().url());
                throw new ParameterResolutionException(serverAnswered(refused) ? "the PostgreSQL at " + at + " refuses the test: " + refused.getMessage()
                        : "cannot open the PostgreSQL at " + at + " for the test: " + refused.getMessage(), refused);
            }
            return borrowed(e, localKey(local.get()), ((Handle) t).target);
        }
        Optional<PgVersion> version = p.findAnnotation(PgVersion.class);
        String url = System.getenv("KENSHO_TEST_URL");
        if (url != null && !url.isBlank() && version.isEmpty()) {
            return shared(e, "url:" + url, () -> openRemote(System.getenv()));
        }
        if (containersAsked() && version.isEmpty()) {
            String reason = TargetSpec.containersUnavailableReason();
            if (reason != null) throw new ParameterResolutionException("Testcontainers target skipped: " + reason);
            String image = containerImage(System.getenv("KENSHO_TEST_TESTCONTAINERS"));
            return shared(e, "containers", () -> opened(new TargetSpec().testcontainers(image), ENVIRONMENT_NAMES));
        }
        if (version.isPresent() && !version.get().release().isBlank()) {
            PgVersion v = version.get();
            if (v.value() != 0) {
                throw new ParameterResolutionException("@PgVersion(" + v.value() + ", release = \"" + v.release() + "\"): give one of the two");
            }
            String release = v.release().strip();
            // "17" and 17 are one server
            return shared(e, "embedded:" + release, () -> opened(() -> new TargetSpec().pgVersion(release), PG_VERSION_NAMES));
        }
        if (version.isPresent() && version.get().value() <= 0) {
            throw new ParameterResolutionException("@PgVersion needs a major (@PgVersion(17)) or a release (@PgVersion(release = \"9.6\"))");
        }
        // The default is the newest version: one server for both ways of asking for it.
        int major = version.map(PgVersion::value).orElseGet(KenshoVersion::newestEmbeddedMajor);
        return shared(e, "embedded:" + major, () -> opened(new TargetSpec().pgVersion(major), PG_VERSION_NAMES));
    }

    /** What --pg-version is to a test: its errors ("--pg-version 9.5: zonky published no such build") name the annotation. */
    private static final Map<String, String> PG_VERSION_NAMES = Map.of("--pg-version", "@PgVersion");

    private static Target opened(TargetSpec spec, Map<String, String> names) {
        return opened(() -> spec, names);
    }

    /** The spec made and opened, its errors in the words of the annotation or variable that asked for it. */
    private static Target opened(java.util.function.Supplier<TargetSpec> spec, Map<String, String> names) {
        try {
            return spec.get().open();
        } catch (KenshoException e) {
            throw e.naming(names);
        }
    }

    /**
     * The server at a {@link LocalPostgres} URL as a {@link Handle}, why there is none (a String: the test is skipped),
     * or, when a server answers there but refuses the test (no such role or database, a password), that refusal (a
     * KenshoException: the test fails, as a misconfigured suite must not pass by skipping); tried once per JVM.
     */
    private Object local(LocalPostgres a, ExtensionContext e) {
        return serverStore(e).getOrComputeIfAbsent(localKey(a), k -> {
            try {
                return new Handle(spec(a).open());
            } catch (KenshoException ex) {
                if (!nothingAnswered(ex)) return ex.naming(LOCAL_NAMES);
                return "no PostgreSQL at " + dev.kensho.core.Credentials.maskUrl(a.url()) + " (" + ex.getMessage() + "): test skipped";
            }
        });
    }

    /** Whether a server answered the login (its refusal is an SQLException), rather than the spec failing before it. */
    private static boolean serverAnswered(Throwable ex) {
        for (Throwable t = ex; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.sql.SQLException) return true;
        }
        return false;
    }

    /** Whether the connection failed before any server answered: refused, no route, unknown host, timed out. */
    private static boolean nothingAnswered(Throwable ex) {
        for (Throwable t = ex; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.net.ConnectException || t instanceof java.net.UnknownHostException
                    || t instanceof java.net.NoRouteToHostException || t instanceof java.net.SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** The command line's options as a {@link LocalPostgres} gives them: its errors name the annotation's elements. */
    private static final Map<String, String> LOCAL_NAMES = Map.of("--url", "@LocalPostgres url", "--user", "@LocalPostgres user",
            "--password-file", "@LocalPostgres passwordFile", "--restart-command", "@LocalPostgres restartCommand");

    static TargetSpec spec(LocalPostgres a) {
        TargetSpec s = new TargetSpec().url(a.url()).user(a.user());
        if (!a.passwordFile().isBlank()) s.passwordFile(java.nio.file.Path.of(a.passwordFile()));
        if (!a.restartCommand().isBlank()) s.restartCommand(a.restartCommand());
        return s;
    }

    // one server, one login and one permission to restart: two annotations that differ in any are two targets
    private static String localKey(LocalPostgres a) {
        return "local:" + a.url() + ":" + a.user() + ":" + a.passwordFile() + ":" + a.restartCommand();
    }

    private interface Opener {
        Target open();
    }

    private Target shared(ExtensionContext e, String key, Opener opener) {
        ExtensionContext.Store store = serverStore(e);
        try {
            return borrowed(e, key, store.getOrComputeIfAbsent(key, k -> new Handle(opener.open()), Handle.class).target);
        } catch (KenshoException ex) {
            throw new ParameterResolutionException("cannot start the test target: " + ex.getMessage(), ex);
        }
    }

    /**
     * Where the shared servers live: the launcher session's store (JUnit 5.13+), which lasts as long as the JVM's
     * launcher session. Surefire with forkCount > 1 runs each class as an execution request of its own in a reused
     * fork, and the root store, closed at the end of each request, stopped and started the server for every class.
     */
    private static ExtensionContext.Store serverStore(ExtensionContext e) {
        try {
            return e.getStore(ExtensionContext.StoreScope.LAUNCHER_SESSION, NS);
        } catch (NoSuchFieldError | NoSuchMethodError | NoClassDefFoundError | UnsupportedOperationException older) {
            return e.getRoot().getStore(NS);   // JUnit before 5.13: one server per test plan
        }
    }

    /**
     * The shared server as this test (or class, for constructors and lifecycle methods) holds it, one per context and
     * server: JUnit closes it with the context, and with it the pools the test made.
     */
    private static Target borrowed(ExtensionContext e, String sharedKey, Target shared) {
        // the context's id in the key: a store lookup also finds its parents' values, and those are the class's
        return e.getStore(NS).getOrComputeIfAbsent("borrowed:" + sharedKey + ":" + e.getUniqueId(),
                k -> new BorrowedTarget(shared), BorrowedTarget.class);
    }

    /**
     * Closes the server when JUnit closes its store (the launcher session's end; the test plan's, before 5.13). Both interfaces:
     * JUnit 5.13+ closes AutoCloseable values (and warns about CloseableResource alone), older
     * versions only CloseableResource ones; a value that is both is closed once.
     */
    @SuppressWarnings("deprecation")
    private static final class Handle implements ExtensionContext.Store.CloseableResource, AutoCloseable {
        final Target target;

        Handle(Target target) {
            this.target = target;
        }

        @Override
        public void close() {
            target.close();
        }
    }
}
