package dev.kensho.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Asks for an embedded server of this version, as {@code --pg-version} picks one: {@code @PgVersion(17)} a major
 * (16, 17, 18 are in bench.jar; another from 10 on is zonky's newest build of it, fetched), and
 * {@code @PgVersion(release = "16.6")} what a number cannot say: one minor release (the studies' 10.6, 11.1, 16.6,
 * 17.2) or a major before 10 ({@code "9.6"}). Give one of the two.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface PgVersion {
    /** A major release from 10 on. */
    int value() default 0;

    /** A release as {@code --pg-version} takes it: "9.6", "16.6", "9.6.24". */
    String release() default "";
}
