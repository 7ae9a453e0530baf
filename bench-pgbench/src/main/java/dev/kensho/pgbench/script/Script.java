package dev.kensho.pgbench.script;

import java.util.Locale;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A parsed pgbench script with its weight: what {@code -f file[@weight]} and {@code -b name[@weight]}
 * produce. Parsing accepts exactly what pgbench 15 accepts (plus the pre-9.6 {@code \setrandom}, run as
 * the equivalent random function with a one-time deprecation warning) and rejects the rest with
 * {@code file:line:column}. Pipelines ({@code \startpipeline}, {@code \syncpipeline}, {@code \endpipeline})
 * parse as in pgbench 17; only the wire engine runs them (see {@link #firstPipelineCommand}).
 */
public final class Script {
    /** Builtins: pgbench's three (exact SQL) and the PGECons studies' custom scripts. */
    public static final List<String> BUILTINS = List.of("tpcb-like", "simple-update", "select-only",
            "pgecons-read", "pgecons-read-noagg", "pgecons-update");

    private final String name;
    private final String description;
    private final int weight;
    private final List<Command> commands;
    private final boolean builtin;
    /** The text parsed, as given (null for a script made of commands, e.g. a warm-up's twin). */
    private final String source;

    Script(String name, String description, int weight, List<Command> commands, boolean builtin) {
        this(name, description, weight, commands, builtin, null);
    }

    private Script(String name, String description, int weight, List<Command> commands, boolean builtin, String source) {
        this.name = name;
        this.description = description;
        this.weight = weight;
        this.commands = List.copyOf(commands);
        this.builtin = builtin;
        this.source = source;
    }

    /** The script's text as it was read (a -f file's, a builtin's), or null for one made of commands. */
    public String source() {
        return source;
    }

    /**
     * True for -b scripts. pgbench reads :scale from pgbench_branches only when a builtin is used (see
     * {@link Variables#readScale}); with -f only, :scale is -s or 1.
     */
    public boolean isBuiltin() {
        return builtin;
    }

    /** File name, or the builtin's name. */
    public String name() {
        return name;
    }

    /** What pgbench prints after "transaction type:" / "script N:": the file name or {@code "<builtin: ...>"}. */
    public String description() {
        return description;
    }

    public int weight() {
        return weight;
    }

    public List<Command> commands() {
        return commands;
    }

    /**
     * Whether a transaction of this script always reaches c, and the script is ever chosen (its weight is above 0). A
     * command inside an \if block, or in a script of weight 0, runs only when reached, and pgbench fails on it only
     * then: what Kensho refuses before a run for such a command, it fails there instead.
     */
    public boolean alwaysReached(Command c) {
        if (weight == 0) return false;
        int depth = 0;
        for (Command x : commands) {
            if (x == c) return depth == 0;
            if (x.kind == Command.Kind.IF) depth++;
            else if (x.kind == Command.Kind.ENDIF) depth--;
        }
        return false;
    }

    /**
     * The script's first pipeline command, or null. pgjdbc has no pipeline mode, and running the commands one by
     * one would measure something else: a run that uses pgjdbc refuses such a script, naming this command.
     */
    public Command firstPipelineCommand() {
        for (Command c : commands) if (c.kind.pipeline()) return c;
        return null;
    }

    /**
     * SHA-256 of the commands as parsed, and the weight ("…@1"): what the script says, so that a run resumed with its
     * file edited is told from the one recorded; comments and blank lines are not the script's and change nothing.
     */
    public String digest() {
        try {
            java.security.MessageDigest md = java.security.MessageDigest.getInstance("SHA-256");
            for (Command c : commands) md.update((c.text() + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(md.digest()) + "@" + weight;
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);   // every Java runtime has SHA-256
        }
    }

    public Script withWeight(int w) {
        return new Script(name, description, w, commands, builtin, source);
    }

    /** Parses script text; {@code fileName} is used in error messages and as the script's name. */
    public static Script parse(String fileName, String text) throws ScriptException {
        return new Script(fileName, fileName, 1, ScriptParser.parse(fileName, text), false, text);
    }

    /**
     * Reads and parses a script file; "-" reads standard input, as pgbench does, and is its name as pgbench names it
     * (the report's "transaction type: -", errors' "-:2: ...").
     */
    public static Script read(Path file) throws ScriptException {
        try {
            if (file.toString().equals("-")) {
                return parse("-", utf8("-", System.in.readAllBytes()));
            }
            return parse(file.toString(), utf8(file.toString(), Files.readAllBytes(file)));
        } catch (IOException e) {
            // pgbench gives the system's reason, capitalised as strerror writes it; "open" when the file was not had
            String reason = dev.kensho.core.KenshoException.ioReason(e);
            reason = Character.toUpperCase(reason.charAt(0)) + reason.substring(1);
            boolean open = e instanceof java.nio.file.NoSuchFileException || e instanceof java.nio.file.AccessDeniedException;
            throw new ScriptException("could not " + (open ? "open" : "read") + " file \"" + file + "\": " + reason);
        }
    }

    /**
     * The script's text, or an error naming the line and the first byte that is not UTF-8 (Java's own
     * MalformedInputException says only "Input length = 1"; a replacement character would send other SQL).
     */
    public static String utf8(String fileName, byte[] bytes) throws ScriptException {
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(bytes);
        java.nio.CharBuffer out = java.nio.CharBuffer.allocate(bytes.length);
        java.nio.charset.CoderResult r = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT).decode(in, out, true);
        if (r.isError()) {
            int at = in.position();
            int line = 1;
            for (int i = 0; i < at; i++) if (bytes[i] == '\n') line++;
            // the column as other script errors count it: the characters read on its line before it, and one
            int column = 1;
            for (int i = out.position() - 1; i >= 0 && out.get(i) != '\n'; i--) column++;
            throw new ScriptException(fileName, line, column, "not valid UTF-8 (byte 0x" + String.format(Locale.ROOT, "%02x", bytes[at] & 0xff) + ")");
        }
        String text = out.flip().toString();
        int nul = text.indexOf('\0');
        if (nul >= 0) {
            // pgbench reads a script as a C string and silently drops all after it, psql the rest of its line (a UTF-16
            // file, a truncated copy); a raw NUL in the error line would reach the terminal
            int line = 1, column = 1;
            for (int i = 0; i < nul; i++) {
                if (text.charAt(i) == '\n') { line++; column = 1; } else column++;
            }
            throw new ScriptException(fileName, line, column, "NUL byte (0x00): remove it");
        }
        return text;
    }

    /**
     * A builtin by exact name or unambiguous prefix (pgbench's findBuiltin; an exact name wins, since
     * "pgecons-read" is also a prefix of "pgecons-read-noagg").
     */
    public static Script builtin(String nameOrPrefix) throws ScriptException {
        String found = builtinName(nameOrPrefix);
        return new Script(found, builtinDescription(found), 1, ScriptParser.parse(found, builtinText(found)), true, builtinText(found));
    }

    /** The full name of the builtin an exact name or unambiguous prefix selects, or pgbench's error. */
    public static String builtinName(String nameOrPrefix) throws ScriptException {
        String found = null;
        int count = 0;
        for (String b : BUILTINS) {
            if (b.equals(nameOrPrefix)) {
                return b;
            }
            if (b.startsWith(nameOrPrefix)) {
                found = b;
                count++;
            }
        }
        if (count == 0) {
            throw new ScriptException("no builtin script found for name \"" + nameOrPrefix
                    + "\"; available: " + String.join(", ", BUILTINS));
        }
        if (count > 1) {
            throw new ScriptException("ambiguous builtin name: " + count + " builtin scripts found for prefix \""
                    + nameOrPrefix + "\"");
        }
        return found;
    }

    /** What pgbench prints for a builtin after "transaction type:" and in its list: {@code "<builtin: TPC-B (sort of)>"}. */
    public static String builtinDescription(String name) {
        return switch (name) {
            case "tpcb-like" -> "<builtin: TPC-B (sort of)>";
            case "simple-update" -> "<builtin: simple update>";
            case "select-only" -> "<builtin: select only>";
            default -> "<builtin: " + name + ">";
        };
    }

    /** The script text of a builtin (full name), as --show-script prints it: without the resource's provenance comment. */
    public static String builtinText(String name) {
        String resource = "/dev/kensho/pgbench/builtin/" + name + ".sql";
        try (InputStream in = Script.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            return stripHeader(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Builtin resources start with "--" comment lines saying where the script comes from; drop them. */
    private static String stripHeader(String text) {
        int i = 0;
        while (text.startsWith("--", i)) {
            int nl = text.indexOf('\n', i);
            i = nl < 0 ? text.length() : nl + 1;
        }
        return text.substring(i);
    }

    /**
     * Parses a -f or -b option value: {@code "-f file[@weight]"}, {@code "-b name[@weight]"}, or the
     * long forms {@code --file=}, {@code --builtin=}. The weight is pgbench's: a decimal integer in
     * [0, 2147483647] after the last '@', default 1.
     */
    public static Script fromSpec(String spec) throws ScriptException {
        String s = spec.strip();
        boolean builtin;
        String rest;
        if (s.startsWith("-b") || s.startsWith("--builtin")) {
            builtin = true;
            rest = s.startsWith("-b") ? s.substring(2) : s.substring("--builtin".length());
        } else if (s.startsWith("-f") || s.startsWith("--file")) {
            builtin = false;
            rest = s.startsWith("-f") ? s.substring(2) : s.substring("--file".length());
        } else {
            throw new ScriptException("invalid script specification \"" + spec + "\": expected -f file[@weight] or -b name[@weight]");
        }
        rest = rest.startsWith("=") ? rest.substring(1) : rest.strip();
        int at = rest.lastIndexOf('@');
        String target = at < 0 ? rest : rest.substring(0, at);
        int weight = at < 0 ? 1 : parseWeight(rest.substring(at));
        Script script = builtin ? builtin(target) : read(Path.of(target));
        return script.withWeight(weight);
    }

    private static int parseWeight(String atWeight) throws ScriptException {
        String digits = atWeight.substring(1);
        if (!digits.matches("[ \\t]*[+-]?\\d+")) {
            throw new ScriptException("invalid weight specification: " + atWeight);
        }
        long w;
        try {
            w = Long.parseLong(digits.strip());
        } catch (NumberFormatException e) {
            throw new ScriptException("invalid weight specification: " + atWeight);
        }
        if (w > Integer.MAX_VALUE || w < 0) {
            throw new ScriptException("weight specification out of range (0 .. " + Integer.MAX_VALUE + "): " + w);
        }
        return (int) w;
    }

    /** Checks a script list as pgbench does: at most 128 scripts, total weight not zero. */
    public static void checkList(List<Script> scripts) throws ScriptException {
        if (scripts.isEmpty()) {
            throw new ScriptException("no script given");
        }
        if (scripts.size() > 128) {
            throw new ScriptException("at most 128 SQL scripts are allowed");
        }
        long total = 0;
        for (Script s : scripts) {
            total += s.weight();
        }
        // summed in 64 bits, as pgbench's total_weight: 128 weights of at most 2^31-1 each cannot overflow it
        if (total == 0) {
            throw new ScriptException("total script weight must not be zero");
        }
    }

    /**
     * pgbench's chooseScript: with one script no random value is drawn; otherwise a uniform value in
     * [0, total weight) from the thread's choose state selects by cumulative weight.
     */
    public static int choose(List<Script> scripts, PgbenchRandom threadChoose) {
        if (scripts.size() == 1) {
            return 0;
        }
        long total = 0;
        for (Script s : scripts) {
            total += s.weight();
        }
        long w = threadChoose.nextInRange(0, total - 1);
        int i = 0;
        do {
            w -= scripts.get(i++).weight();
        } while (w >= 0);
        return i - 1;
    }

    /** The script text as pgbench's --show-script would list commands (one per line, first lines). */
    public List<String> commandLines() {
        List<String> out = new ArrayList<>();
        for (Command c : commands) {
            out.add(c.text());
        }
        return out;
    }

    @Override
    public String toString() {
        return description + (weight != 1 ? "@" + weight : "");
    }
}
