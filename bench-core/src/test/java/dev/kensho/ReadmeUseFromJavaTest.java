package dev.kensho;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A harness's pom is written from the README's "Use from Java": the versions it names for what Kensho declares
 * optional (JUnit, JMH) must be the ones Kensho is built with, or the harness guesses.
 */
class ReadmeUseFromJavaTest {

    static String useFromJava() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        int start = readme.indexOf("## Use from Java");
        int end = readme.indexOf("\n## ", start + 1);
        return readme.substring(start, end < 0 ? readme.length() : end);
    }

    static String property(String name) throws Exception {
        Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</").matcher(Files.readString(Path.of("..", "pom.xml")));
        assertTrue(m.find(), name + " in the parent pom");
        return m.group(1);
    }

    @Test
    void theSectionNamesTheJunitAndJmhVersionsKenshoIsBuiltWith() throws Exception {
        String section = useFromJava();
        assertTrue(section.contains("<artifactId>junit-jupiter</artifactId><version>" + property("junit.version") + "</version>"), section);
        assertTrue(section.contains("`org.openjdk.jmh:jmh-core` (version " + property("jmh.version") + ","), section);
    }
}
