package dev.kensho.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Marks a test class or method that changes a shared server ({@code control().apply(...)},
 * {@code restart()}, or tables other tests use: a pgbench init or an SSB load drops and creates them): under JUnit's
 * parallel execution it runs while no other {@link KenshoTarget} test does, so none measures under its settings,
 * loses its connections to its restart or its tables to a reload. On one method
 * it still takes its whole class out of the parallel run: JUnit raises the class's shared lock to an
 * exclusive one, and the class's tests then run one after another, alone.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ResourceLock(KenshoTarget.SERVER)
public @interface ChangesServer {
}
