package dev.kensho.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Asks for an embedded server of this major version: 16, 17, 18 are in bench.jar, another from 10 on is zonky's newest
 * build of it, fetched as {@code --pg-version} fetches it (9.6 and minor releases: {@code TargetSpec.pgVersion("9.6")}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface PgVersion {
    int value();
}
