package dev.kensho.core.result;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.kensho.core.KenshoException;

/** The one Jackson configuration for every file Kensho writes. */
public final class Json {
    /** The oldest jackson-databind that serializes records (RunInfo, Trial, ...): 2.12. */
    static final String MINIMUM_JACKSON = "2.12";

    // before MAPPER: a harness whose platform pins an older Jackson got "No serializer found for class
    // dev.kensho.core.result.RunInfo" (2.10, 2.11) or a NoClassDefFoundError of JsonMapper (2.9) from its first run
    // directory, neither naming the version it needs
    static {
        requireJackson(com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION);
    }

    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    /**
     * {@link #MAPPER} for what leaves the process as a file or on stdout (run.json, trials.jsonl, an environment
     * record), every string {@link dev.kensho.core.Credentials#maskText masked}: they hold what servers said and users
     * gave (a standby's primary_conninfo, a --set value, an error quoting an ALTER ROLE ... PASSWORD), and a password
     * in any of them must not reach the disk. Not for convertValue: a value converted is not leaving.
     */
    public static final ObjectMapper MASKING = MAPPER.copy().registerModule(new com.fasterxml.jackson.databind.module.SimpleModule()
            .addSerializer(String.class, new com.fasterxml.jackson.databind.ser.std.StdSerializer<String>(String.class) {
                @Override
                public void serialize(String value, com.fasterxml.jackson.core.JsonGenerator gen,
                                      com.fasterxml.jackson.databind.SerializerProvider provider) throws java.io.IOException {
                    gen.writeString(dev.kensho.core.Credentials.maskText(value));
                }
            }));

    private Json() {}

    /** Refuses a jackson-databind older than {@link #MINIMUM_JACKSON}, naming the version found and the one needed. */
    static void requireJackson(com.fasterxml.jackson.core.Version found) {
        if (found.getMajorVersion() == 2 && found.getMinorVersion() < 12 || found.getMajorVersion() < 2) {
            throw KenshoException.usage("jackson-databind " + found + " is on the classpath; Kensho needs "
                    + MINIMUM_JACKSON + " or later (it writes Java records as JSON): pin com.fasterxml.jackson:jackson-bom to "
                    + MINIMUM_JACKSON + " or later");
        }
    }
}
