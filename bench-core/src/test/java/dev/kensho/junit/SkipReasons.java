package dev.kensho.junit;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Prints why a test or class was skipped (a failed assumption: no C pgbench, no socket of the local server, a release
 * not in the local Maven repository; a condition: an opt-in test) in the build's log, where surefire's console shows
 * only a count: a skip must be seen. {@link KenshoTargetExtension} prints its own reasons already. Registered through
 * META-INF/services in bench-core's test jar, so every module whose tests use that jar has it.
 */
public final class SkipReasons implements TestExecutionListener {
    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        if (!KenshoTargetExtension.PRINTED.contains(reason)) print(test, reason);
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() != TestExecutionResult.Status.ABORTED) return;
        print(test, result.getThrowable().map(Throwable::getMessage).orElse("no reason given"));
    }

    private static void print(TestIdentifier test, String reason) {
        // the class and method: a display name alone ("[1] pgjdbc") does not say which test
        String where = test.getSource().map(SkipReasons::name).orElse("");
        String shown = test.getDisplayName();
        String last = where.substring(where.lastIndexOf('.') + 1);
        if (!where.isEmpty() && !shown.equals(last) && !shown.startsWith(last + "(")) where += " " + shown;
        System.err.println("SKIPPED: " + (where.isEmpty() ? shown : where) + ": " + reason);
    }

    private static String name(TestSource s) {
        if (s instanceof MethodSource m) return simple(m.getClassName()) + "." + m.getMethodName();
        if (s instanceof ClassSource c) return simple(c.getClassName());
        return s.toString();
    }

    private static String simple(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }
}
