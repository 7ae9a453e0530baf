package dev.kensho.junit;

import dev.kensho.core.KenshoException;
import dev.kensho.core.server.Target;
import dev.kensho.core.server.TargetSpec;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.opentest4j.TestAbortedException;

/**
 * Resolves {@link Target} parameters (see {@link KenshoTarget}). Servers are started once per JVM
 * and key, kept in the root store and stopped when the test plan ends, because starting
 * PostgreSQL per test would dominate the suite's time.
 */
public final class KenshoTargetExtension implements ParameterResolver {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(KenshoTargetExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
        return p.getParameter().getType() == Target.class;
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext e) {
        Optional<LocalPostgres> local = p.findAnnotation(LocalPostgres.class);
        if (local.isPresent()) return localServer(local.get(), e);
        Optional<PgVersion> version = p.findAnnotation(PgVersion.class);
        String url = System.getenv("KENSHO_TEST_URL");
        if (url != null && !url.isBlank() && version.isEmpty()) {
            return shared(e, "url:" + url, () -> new TargetSpec().url(url).user(System.getenv("KENSHO_TEST_USER")).open());
        }
        if (System.getenv("KENSHO_TEST_TESTCONTAINERS") != null && version.isEmpty()) {
            String reason = TargetSpec.containersUnavailableReason();
            if (reason != null) skip("Testcontainers target skipped: " + reason);
            return shared(e, "containers", () -> new TargetSpec().testcontainers(System.getenv("KENSHO_TEST_TESTCONTAINERS")).open());
        }
        Integer major = version.map(PgVersion::value).orElse(null);
        return shared(e, "embedded:" + major, () -> new TargetSpec().pgVersion(major).open());
    }

    private Target localServer(LocalPostgres a, ExtensionContext e) {
        String key = "local:" + a.url() + ":" + a.user();
        ExtensionContext.Store store = e.getRoot().getStore(NS);
        Object cached = store.get(key);
        if (cached instanceof String reason) skip(reason);
        if (cached instanceof Handle h) return h.target;
        try {
            Target t = new TargetSpec().url(a.url()).user(a.user()).open();
            store.put(key, new Handle(t));
            return t;
        } catch (KenshoException ex) {
            String reason = "no PostgreSQL at " + a.url() + " (" + ex.getMessage() + "): test skipped";
            store.put(key, reason);
            skip(reason);
            return null;
        }
    }

    private static void skip(String reason) {
        System.err.println("SKIPPED: " + reason);
        throw new TestAbortedException(reason);
    }

    private interface Opener {
        Target open();
    }

    private Target shared(ExtensionContext e, String key, Opener opener) {
        ExtensionContext.Store store = e.getRoot().getStore(NS);
        try {
            return store.getOrComputeIfAbsent(key, k -> new Handle(opener.open()), Handle.class).target;
        } catch (KenshoException ex) {
            throw new ParameterResolutionException("cannot start the test target: " + ex.getMessage(), ex);
        }
    }

    /** Closes the server when JUnit closes the root store (end of the test plan). */
    private static final class Handle implements ExtensionContext.Store.CloseableResource {
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
