package dev.kensho.core.result;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/** The one Jackson configuration for every file Kensho writes. */
public final class Json {
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
}
