package dev.kensho.cli;

import dev.kensho.cli.pgbench.PgbenchConnectionArgs;
import dev.kensho.core.JvmShutdown;
import dev.kensho.core.KenshoException;
import dev.kensho.core.result.RunDirectory;
import dev.kensho.core.server.ServerActions;
import dev.kensho.pgbench.script.Variables;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** bench.jar's entry point: the top-level command, exit codes and error printing. */
@Command(name = "bench", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Kensho (検証): reruns PostgreSQL performance verifications the way PGECons does.%n"
                + "Default target: an embedded PostgreSQL managed by Kensho; --url for a remote server.",
        subcommands = {dev.kensho.cli.ssb.SsbCommand.class, dev.kensho.cli.pgbench.PgbenchCommand.class,
                dev.kensho.cli.scan.ScanCommand.class, QueryCommand.class, MicroCommand.class, dev.kensho.cli.report.ReportCommand.class,
                dev.kensho.cli.report.CompareCommand.class, EnvCommand.class, HelpCommand.class},
        footer = {"", "Exit codes: 0 ok, 1 failure, 2 usage error, 3 target error (unreachable, authentication, missing database).",
                "Results: ./results/<UTC timestamp>-<command>/ (run.json, trials.jsonl, summary.csv)."})
public final class Kensho implements Runnable {
    private static String[] arguments = new String[0];
    /** The run directory of the command in progress: named on Ctrl-C so the user can --resume it. */
    static volatile Path activeRun;
    /** The run directory this invocation created (not one it resumed): removed again when nothing was recorded in it. */
    static volatile Path createdRun;
    /** The --results directory this run made for its run directory (null: it was there): removed with it when empty. */
    static volatile Path createdResults;
    /** The same run, to note in its run.json why it ended before its first trial (see {@link #noteFailure}). */
    static volatile RunDirectory createdRunDirectory;
    /** A run this invocation resumed: a failure before its first trial is noted too (a failed resume had left no word). */
    static volatile RunDirectory resumedRunDirectory;
    private static volatile boolean shuttingDown;

    @Option(names = "--verbose", scope = ScopeType.INHERIT, description = "Print stack traces and library diagnostics.")
    static boolean verbose;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        // a command of commands alone is a usage error (exit 2), as the footer's scheme says; it exited 0
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand: give one of "
                + String.join(", ", spec.subcommands().keySet()));
    }

    /**
     * picocli's message, about what the user typed: an option by the name given (-T, not --duration), and an unknown
     * option before a required one it stands for ("ssb gen -o DIR" said only "Missing required option: '--out=DIR'").
     */
    static String inTheUsersWords(CommandLine.ParameterException ex, String[] args) {
        String message = ex.getMessage();
        CommandLine.Model.CommandSpec spec = ex.getCommandLine().getCommandSpec();
        if (ex instanceof CommandLine.MissingParameterException && ex.getArgSpec() == null || ex instanceof CommandLine.MissingParameterException
                && ex.getArgSpec() instanceof CommandLine.Model.OptionSpec o && o.required()) {
            // what picocli could not match, not every word with a dash: "-f -w.sql" is a file, and "--" ends the options
            List<String> unknown = ex.getCommandLine().getUnmatchedArguments().stream().filter(a -> a.startsWith("-") && !a.equals("-")).toList();
            if (!unknown.isEmpty()) {
                return "Unknown option" + (unknown.size() > 1 ? "s: " : ": ") + unknown.stream().map(u -> "'" + u + "'")
                        .collect(java.util.stream.Collectors.joining(", ")) + "; " + message.substring(0, 1).toLowerCase(java.util.Locale.ROOT) + message.substring(1);
            }
        }
        CommandLine.Model.ArgSpec arg = ex.getArgSpec();
        if (arg == null && ex instanceof CommandLine.MissingParameterException m && m.getMissing().size() == 1) arg = m.getMissing().get(0);
        if (arg instanceof CommandLine.Model.OptionSpec o) {
            String typed = typedName(o, spec, args);
            if (typed != null) message = message.replace("'" + o.longestName() + "'", "'" + typed + "'");
        }
        return message;
    }

    /** The name an option was given by when not its longest (-T for --duration), else null. */
    private static String typedName(CommandLine.Model.OptionSpec o, CommandLine.Model.CommandSpec spec, String[] args) {
        String typed = null;
        // the command's flags that take no value: only they cluster before another (-nT); -bselect-only is -b's value
        StringBuilder flags = new StringBuilder();
        for (CommandLine.Model.OptionSpec f : spec.options()) {
            if (f.arity().max() != 0) continue;
            for (String n : f.names()) if (n.length() == 2 && Character.isLetterOrDigit(n.charAt(1))) flags.append(n.charAt(1));
        }
        String cluster = flags.length() == 0 ? "" : "[" + flags + "]*";
        for (String a : args) {
            if (a.equals("--")) break;   // the rest are values
            for (String n : o.names()) {
                // -T, -T2s, and -nT (-n and -T clustered, pgbench's way)
                boolean shortOne = !n.startsWith("--") && n.length() == 2 && a.startsWith("-") && !a.startsWith("--")
                        && a.substring(1).matches(cluster + java.util.regex.Pattern.quote(n.substring(1)) + ".*");
                if (a.equals(n) || a.startsWith(n + "=") || shortOne) typed = n;
            }
        }
        return typed == null || typed.equals(o.longestName()) ? null : typed;
    }

    /**
     * A command's own usage error, about what the user typed: it names its options by their longest names ("--scale
     * 1.5: must be a whole number"), and the user who typed -s reads -s.
     */
    static String inTheUsersWords(String message, CommandLine.ParseResult parseResult) {
        String[] args = parseResult.originalArgs().toArray(String[]::new);
        for (CommandLine.ParseResult level = parseResult; level != null; level = level.subcommand()) {
            for (CommandLine.Model.OptionSpec o : level.matchedOptions()) {
                String typed = typedName(o, level.commandSpec(), args);
                // not after a slash: pgbench's own "-t/--transactions" already names both
                if (typed != null) message = message.replaceAll("(?<![\\w/-])" + java.util.regex.Pattern.quote(o.longestName()) + "(?![\\w-])",
                        java.util.regex.Matcher.quoteReplacement(typed));
            }
        }
        return message;
    }

    /** The raw command line, for run.json (callers mask it). */
    static String[] arguments() {
        return arguments.clone();
    }

    /** Held: java.util.logging keeps loggers weakly, and a collected one forgets its level. */
    private static final java.util.logging.Logger PGJDBC_LOG = java.util.logging.Logger.getLogger("org.postgresql");

    /** The run's own command line with --resume (a resume with other options is refused), from its run.json. */
    private static String resumeCommand(Path run) {
        try {
            return RunDirectory.info(run).resumeCommand(run);
        } catch (RuntimeException e) {
            return "--resume " + run;   // run.json unreadable: the resume will say why
        }
    }

    /**
     * How this process was started, for the commands it prints to run again: the jar as found from the working
     * directory (a copy named otherwise, or one elsewhere, was printed as bench.jar, which is not there).
     */
    static String program() {
        try {
            Path jar = Path.of(Kensho.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (!jar.toString().endsWith(".jar")) return "java -jar bench.jar";   // classes, as in tests
            Path cwd = Path.of("").toAbsolutePath();
            String shown = jar.startsWith(cwd) ? cwd.relativize(jar).toString() : jar.toString();
            return "java -jar " + dev.kensho.core.result.RunInfo.shellWord(shown);
        } catch (RuntimeException | java.net.URISyntaxException e) {
            return "java -jar bench.jar";
        }
    }

    private static int outOfMemory(OutOfMemoryError e) {
        oomReserve = null;
        if (verbose) e.printStackTrace();
        String said;
        if (dev.kensho.core.env.ThreadLimits.isThreadRefused(e)) {
            // a limit on processes or tasks far more often than memory: a larger -Xmx (what this line said) cannot lift it
            said = "cannot start another thread (" + dev.kensho.core.env.ThreadLimits.describe() + "): lower the clients or threads,"
                    + " or raise the limit";
        } else {
            long mb = Runtime.getRuntime().maxMemory() >> 20;
            said = "out of memory (" + e.getMessage() + "; the JVM's heap is at most " + mb + " MB): give it more, "
                    + "as in " + program().replaceFirst("^java ", "java -Xmx" + Math.max(1024, 2 * mb) + "m ") + " ...";
        }
        System.err.println("bench: " + said);
        try {
            // as every other failure before the first trial: report and compare quote it
            noteFailure(said);
        } catch (Throwable again) {
            // out of memory again: the line above is what is said
        }
        return KenshoException.FAILURE;
    }

    /** Heap given back when the JVM runs out, so that the out-of-memory line can be made. */
    @SuppressWarnings("unused")
    private static volatile byte[] oomReserve = new byte[512 * 1024];

    /** Set by main where the JVM's charset cannot write Kensho's text (LANG=C): stdout and stderr are UTF-8 instead. */
    private static boolean utf8Console;

    /**
     * The charset a stream writes in: PrintStream.charset() from Java 18 (the locale's for the JVM's own stdout, while
     * file.encoding is UTF-8 there: under LANG=C the default charset could write kanji and stdout could not); on 17,
     * sun.stdout.encoding (or sun.stderr.encoding) where set, else the default charset, as 17's own streams choose.
     */
    static java.nio.charset.Charset charsetOf(java.io.PrintStream s, String stream) {
        try {
            return (java.nio.charset.Charset) java.io.PrintStream.class.getMethod("charset").invoke(s);
        } catch (ReflectiveOperationException | RuntimeException java17) {
            // no PrintStream.charset(): the properties 17 reads
        }
        String name = System.getProperty("sun." + stream + ".encoding");
        if (name != null && !name.isBlank()) {
            try {
                return java.nio.charset.Charset.forName(name);
            } catch (IllegalArgumentException unknown) {
                // the JVM then writes in its default charset
            }
        }
        return java.nio.charset.Charset.defaultCharset();
    }

    public static void main(String[] args) {
        // the resume commands that stderr, report and compare print name the jar this is
        dev.kensho.core.result.RunInfo.startedAs(program());
        // LANG=C, a CI job's usual locale: Java wrote ASCII, every kanji, dash, µ and ≥ a "?" ("Kensho (??)",
        // "min?max"). UTF-8's bytes are what CI logs and today's terminals read, and what pgbench and psql pass on
        // from the server unconverted. A Japanese locale (EUC-JP, Shift_JIS) keeps its encoding, as psql's output does:
        // in UTF-8 every path and server message was unreadable on its terminal, where now only a dash, µ or ≥ of
        // Kensho's own is a "?"
        java.nio.charset.Charset locale = charsetOf(System.out, "stdout");
        utf8Console = !locale.newEncoder().canEncode("検証");
        // the JVM's own stream as it makes it (a 128-byte buffer, flushed at each line), over one that remembers a failed write
        System.setOut(new java.io.PrintStream(new java.io.BufferedOutputStream(StandardOutput.open(), 128), true,
                utf8Console ? java.nio.charset.StandardCharsets.UTF_8 : locale));
        if (utf8Console) {
            System.setErr(new java.io.PrintStream(new java.io.BufferedOutputStream(new java.io.FileOutputStream(java.io.FileDescriptor.err), 128),
                    true, java.nio.charset.StandardCharsets.UTF_8));
        }
        String undecodable = undecodableArgument(args, System.getenv(), System.getProperty("sun.jnu.encoding", ""));
        if (undecodable != null) {
            System.err.println("bench: " + undecodable);
            System.exit(2);
        }
        int code;
        try {
            code = execute(args);
        } catch (OutOfMemoryError e) {
            // before a command runs (picocli building its model in a tiny heap): said as execute says it
            code = outOfMemory(e);
        }
        System.out.flush();
        String lost = StandardOutput.failure();
        if (lost != null) {
            System.err.println("bench: cannot write to standard output: " + lost);
            if (code == 0) code = KenshoException.FAILURE;
        }
        System.exit(code);
    }

    /**
     * Under LANG=C the JVM decodes the command line as ASCII: a kanji in a query became U+FFFD and the query measured was
     * another ("SELECT '���'"), a Japanese path failed with InvalidPathException. Java cannot decode it otherwise, nor name
     * such a file (the same encoding is the file system's), so the run is refused with the remedy; null when it is fine.
     */
    static String undecodableArgument(String[] args, Map<String, String> env, String encoding) {
        if (encoding.equalsIgnoreCase("UTF-8") || encoding.equalsIgnoreCase("UTF8")) return null;
        String what = null;
        for (int i = 0; i < args.length && what == null; i++) if (args[i].indexOf('\uFFFD') >= 0) what = "argument " + (i + 1);
        // libpq's variables (PGDATABASE, PGUSER, PGOPTIONS, ...) are read the same way where a --url is, Kensho's where a
        // command may start a server; report, compare, --help and --version read neither (and were refused)
        List<String> a = java.util.Arrays.asList(args);
        boolean reads = !a.isEmpty() && !List.of("report", "compare", "help").contains(a.get(0))
                && a.stream().noneMatch(x -> x.equals("--help") || x.equals("-h") || x.equals("--version") || x.equals("-V"));
        boolean url = a.stream().anyMatch(x -> x.startsWith("--url"));
        for (var e : new java.util.TreeMap<>(env).entrySet()) {
            boolean read = reads && (e.getKey().startsWith("PG") ? url : e.getKey().startsWith("KENSHO_"));
            if (what == null && read && e.getValue().indexOf('\uFFFD') >= 0) what = "environment variable " + e.getKey();
        }
        if (what == null) return null;
        String lang = env.get("LC_ALL") != null && !env.get("LC_ALL").isEmpty() ? "LC_ALL=" + env.get("LC_ALL")
                : env.get("LANG") != null ? "LANG=" + env.get("LANG") : "no LANG";
        return what + " holds characters the locale's encoding (" + encoding + ", " + lang + ") cannot read, and Java"
                + " would pass on others in their place: run with a UTF-8 locale (LC_ALL=C.UTF-8, for one)";
    }

    /** The start of run.json's note of a run the JVM's end cut short (Ctrl-C, SIGTERM, SIGHUP). */
    static final String INTERRUPTED = "interrupted (the JVM was asked to end: Ctrl-C, SIGTERM or SIGHUP) at ";

    /** Runs a command line and returns the exit code (tests call this without exiting the JVM). */
    public static int execute(String... args) {
        arguments = args.clone();
        ServerActions.start();
        System.setProperty("java.awt.headless", "true");
        // pgjdbc logs warnings (e.g. about a URL's port) through java.util.logging onto stderr:
        // errors are one line of Kensho's own unless --verbose asks for the libraries' diagnostics.
        PGJDBC_LOG.setLevel(java.util.Arrays.asList(args).contains("--verbose") ? null : java.util.logging.Level.OFF);
        CommandLine cl = commandLine();
        Thread hook = new Thread(() -> {
            shuttingDown = true;
            JvmShutdown.begin();   // before the check below: no trial is appended from now on
            Path run = activeRun;
            // read together with run: the command's thread, ending at the next trial's start once the JVM is ending,
            // used to clear it between the two reads, and a signal just after a trial lost run.json's note
            RunDirectory dir = createdRunDirectory != null ? createdRunDirectory : resumedRunDirectory;
            if (run != null && run.equals(createdRun) && !hasTrials(run)) {
                // not removed here: the command's thread still writes to it until the JVM halts
                // yet it is a run to resume, not to delete: its run.json has the plan
                System.err.println("bench: interrupted before any trial finished; " + run + " holds no results yet (" + resumeCommand(run) + " runs it)");
            } else if (run != null) {
                System.err.println("bench: interrupted; finished trials are kept in " + run + " (" + resumeCommand(run) + " runs any trials that are left)");
            }
            // in run.json too, which report and compare quote: read alone, the directory of a Ctrl-C'd run looked like
            // one still running (a SIGKILL leaves no note; a resume notes itself)
            // not into a directory removed meanwhile (an empty run's): writing run.json would make it again
            if (run != null && dir != null && Files.isDirectory(dir.path())) {
                try {
                    dir.note(INTERRUPTED + java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + " with "
                            + dir.trials().size() + " trials recorded");
                } catch (RuntimeException ignored) {
                    // a full disk, a directory removed: the line above said where the run is
                }
            }
        }, "kensho-interrupted");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return cl.execute(args);
        } catch (OutOfMemoryError e) {
            // an Error passes picocli's handlers: it ended as a stack trace without a word of what to do. The reserve
            // goes first: in a tiny heap (-Xmx8m) building this line ran out of memory too, and the trace was back
            return outOfMemory(e);
        } finally {
            // the interrupt hook reads them still: a command that ended because the JVM is ending keeps them for it
            if (!JvmShutdown.begun()) {
                activeRun = null;
                createdRun = null;
                createdResults = null;
                createdRunDirectory = null;
                resumedRunDirectory = null;
            }
            ServerActions.start();   // later actions in this JVM (a test's, a harness's) are not this run's
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // already shutting down
            }
        }
    }

    /**
     * A decimal number as strtol reads one: C's blanks (isspace) around it taken off, ASCII digits only (Java's
     * valueOf takes any script's); picocli's words when it is none, or too large.
     */
    private static <T> T cNumber(String s, String what, java.util.function.Function<String, T> valueOf) {
        int from = 0, to = s.length();
        while (from < to && Variables.isSpace(s.charAt(from))) from++;
        while (to > from && Variables.isSpace(s.charAt(to - 1))) to--;
        String t = s.substring(from, to);
        try {
            if (t.matches("[+-]?[0-9]+")) return valueOf.apply(t);
        } catch (NumberFormatException tooLarge) {
            // said below, as any other
        }
        throw new CommandLine.TypeConversionException("'" + s + "' is not " + what);
    }

    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Kensho());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // picocli writes through its own writers, made with the JVM's default charset: UTF-8 from Java 18, which put
        // UTF-8 into a Japanese locale's stdout (EUC-JP, Shift_JIS)
        // (main's UTF-8 streams where stdout could not write Japanese: 17 cannot ask a stream its charset)
        cl.setOut(new PrintWriter(new java.io.OutputStreamWriter(System.out, utf8Console ? java.nio.charset.StandardCharsets.UTF_8
                : charsetOf(System.out, "stdout")), true));
        cl.setErr(new PrintWriter(new java.io.OutputStreamWriter(System.err, utf8Console ? java.nio.charset.StandardCharsets.UTF_8
                : charsetOf(System.err, "stderr")), true));
        giveVersion(cl);
        // "" is the working directory to Path.of: --results "" and ssb gen --out "" wrote there without a word
        cl.registerConverter(java.nio.file.Path.class, s -> {
            if (s.isBlank()) throw new CommandLine.TypeConversionException("an empty path");
            return java.nio.file.Path.of(s);
        });
        // pgbench takes the last of a repeated option (-T 60 ... -T 120); Kensho's other commands refuse the repeat,
        // where a second --pg-version meant as a list would otherwise be dropped unsaid
        CommandLine pgbench = cl.getSubcommands().get("pgbench");
        pgbench.getSubcommands().get("run").setOverwrittenOptionsAllowed(true);
        pgbench.getSubcommands().get("init").setOverwrittenOptionsAllowed(true);
        // pgbench's option_parse_int reads with strtol and skips trailing blanks: -s " 2 " is 2 there, and here
        CommandLine.ITypeConverter<Integer> cInt = s -> cNumber(s, "an int", Integer::valueOf);
        CommandLine.ITypeConverter<Long> cLong = s -> cNumber(s, "a long", Long::valueOf);
        pgbench.registerConverter(Integer.class, cInt);
        pgbench.registerConverter(Integer.TYPE, cInt);
        pgbench.registerConverter(Long.class, cLong);
        pgbench.registerConverter(Long.TYPE, cLong);
        cl.setExecutionStrategy(parseResult -> {
            refuseOptionsBeforeSubcommand(parseResult);
            refusePgbenchHost(parseResult);
            return new CommandLine.RunLast().execute(parseResult);
        });
        cl.setParameterExceptionHandler((ex, args) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            String command = ex.getCommandLine().getCommandSpec().qualifiedName(" ");
            // pgbench's "-p 5432 bench" (its port and database) are unknown here: say what they are in Kensho's words
            // picocli quotes the arguments it refused: the one after "--password" (not an option here, but what a psql
            // user types) is a password, which no free-text mask can tell from a word; the command line's mask can
            String[] maskedArgs = dev.kensho.core.Credentials.maskArgs(args);
            Map<String, String> masked = new java.util.HashMap<>();
            for (int i = 0; i < args.length; i++) if (!args[i].equals(maskedArgs[i])) masked.putIfAbsent(args[i], maskedArgs[i]);
            String message = inTheUsersWords(ex, args);
            for (var m : masked.entrySet()) message = message.replace("'" + m.getKey() + "'", "'" + m.getValue() + "'");
            String hint = "";
            // (an unknown option's value is no DBNAME: PgbenchConnectionArgs.hint)
            if (ex instanceof CommandLine.UnmatchedArgumentException u && PgbenchConnectionArgs.isPgbenchCommand(command)) {
                // a password is no DBNAME: neither it nor its option is read for pgbench's connection arguments
                List<String> given = new java.util.ArrayList<>();
                for (int i = 0; i < args.length; i++) {
                    boolean isSecret = !args[i].equals(maskedArgs[i]) && i > 0 && dev.kensho.core.Credentials.takesPassword(args[i - 1]);
                    if (!isSecret && !dev.kensho.core.Credentials.takesPassword(args[i])) given.add(args[i]);
                }
                hint = PgbenchConnectionArgs.hint(given, u.getUnmatched().stream().filter(given::contains).toList(), false)
                        .map(h -> "; pgbench's -h HOST, -p PORT and DBNAME are one --url here: " + h).orElse("");
            }
            // report's and compare's -o: a run's results directory is --results (pgbench has no -o)
            if (ex instanceof CommandLine.UnmatchedArgumentException u && PgbenchConnectionArgs.isPgbenchCommand(command)
                    && u.getUnmatched().stream().anyMatch(a -> a.equals("-o") || a.equals("--out") || a.startsWith("-o") && a.length() > 2)) {
                hint += "; a run's results directory is --results DIR";
            }
            // picocli says "option option '--matrix'" in some messages; users read it
            // picocli quotes the argument it refused, a URL with its password among them
            err.println("bench: " + dev.kensho.core.Credentials.mask(message.replace("\n", " ").replace("option option", "option").strip() + hint)
                    + " (see '" + command + " --help')");
            err.flush();
            return KenshoException.USAGE;
        });
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            if (shuttingDown && !verbose) return 130; // the interrupt hook has said what matters
            Throwable t = ex;
            while (!(t instanceof KenshoException) && t.getCause() != null && t.getCause() != t) t = t.getCause();
            if (verbose) {
                // a driver's message may quote the URL it was given: traces are masked like every other line
                java.io.StringWriter trace = new java.io.StringWriter();
                ex.printStackTrace(new PrintWriter(trace));
                err.print(dev.kensho.core.Credentials.mask(trace.toString()));
            }
            if (t instanceof KenshoException k) {
                // a usage or target error found once the run directory existed must leave nothing behind either
                // a lost connection ("An I/O error occurred while sending to the backend") is explained by the crash
                String crash = dev.kensho.core.server.ServerActions.lastCrash().map(c -> " (" + c + ")").orElse("");
                // the "results: DIR" line said where results would go: a removed DIR is said, not left to be looked for
                String removed = "";
                if (k.exitCode() == KenshoException.USAGE || k.exitCode() == KenshoException.TARGET) {
                    if (removeIfEmpty(createdRun)) removed = " (nothing was measured: " + createdRun + " removed)";
                } else {
                    noteFailure(k.getMessage() + crash);
                }
                String message = k.exitCode() == KenshoException.USAGE ? inTheUsersWords(k.getMessage(), parseResult) : k.getMessage();
                // masked here too: a message may quote what the user gave in the wrong place (-D URL, --password-file URL)
                err.println("bench: " + dev.kensho.core.Credentials.mask(message + crash) + removed);
                err.flush();
                return k.exitCode();
            }
            // an exception no one expected may quote what it was given (java.net.URI quotes a whole URL)
            String unexpected = ex.getClass().getSimpleName() + ": " + dev.kensho.core.Credentials.mask(String.valueOf(ex.getMessage()).split("\n")[0]);
            noteFailure(unexpected);
            err.println("bench: " + unexpected + (verbose ? "" : " (run with --verbose for details)"));
            err.flush();
            return KenshoException.FAILURE;
        });
        return cl;
    }

    /**
     * picocli runs only the last subcommand: `bench ssb --url URL drop` dropped nothing on an embedded server and
     * `bench ssb -s 10 load` loaded SF 1, the parent's options parsed and never read. Refused, saying where they go.
     */
    private static void refuseOptionsBeforeSubcommand(CommandLine.ParseResult parseResult) {
        for (CommandLine.ParseResult level = parseResult; level.hasSubcommand(); level = level.subcommand()) {
            CommandLine.ParseResult sub = level.subcommand();
            for (CommandLine.Model.OptionSpec o : level.matchedOptions()) {
                // --verbose counts wherever it is given; picocli answers -h and -V itself
                if (o.inherited() || o.scopeType() == ScopeType.INHERIT || o.usageHelp() || o.versionHelp()) continue;
                String parent = level.commandSpec().qualifiedName(" ");
                String child = sub.commandSpec().qualifiedName(" ");
                throw new CommandLine.ParameterException(sub.commandSpec().commandLine(), o.longestName() + " is an option of '"
                        + parent + "' itself, which '" + child + "' does not read: give it after the subcommand ("
                        + child + " " + o.longestName() + " ...)");
            }
        }
    }

    /**
     * pgbench's {@code -h HOST} is --help here: {@code bench pgbench run -h db -p 5432 -S -T 60 bench} printed the help
     * and exited 0, having run nothing, where a script took the 0 for a run. A -h followed by a host is refused,
     * naming the --url that pgbench's -h, -p and DBNAME make; a lone -h is still help.
     */
    private static void refusePgbenchHost(CommandLine.ParseResult parseResult) {
        CommandLine.ParseResult leaf = parseResult;
        while (leaf.hasSubcommand()) leaf = leaf.subcommand();
        String command = leaf.commandSpec().qualifiedName(" ");
        if (!leaf.isUsageHelpRequested() || !PgbenchConnectionArgs.isPgbenchCommand(command)) return;
        java.util.Optional<String> hint = PgbenchConnectionArgs.hint(parseResult.originalArgs(), leaf.unmatched(), true);
        if (hint.isPresent()) throw new CommandLine.ParameterException(leaf.commandSpec().commandLine(), "-h is --help here, not pgbench's -h HOST: give pgbench's -h HOST, -p PORT and DBNAME as one "
                + hint.get());
    }

    /** Every subcommand's -V prints what the top level's does (picocli gives them the option, not the text). */
    private static void giveVersion(CommandLine cl) {
        for (CommandLine sub : cl.getSubcommands().values()) {
            sub.getCommandSpec().versionProvider(new VersionProvider());
            giveVersion(sub);
        }
    }

    /** Deletes a run directory that holds no trial and nothing but the files RunDirectory itself writes. */
    private static boolean hasTrials(Path run) {
        try {
            return Files.size(run.resolve(RunDirectory.TRIALS)) > 0;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * A run this invocation created that ends in a failure (not a usage or target error, whose directory is removed)
     * before its first trial keeps its directory, as Ctrl-C does (--resume runs it; its notes say what was done to the
     * servers), and its run.json says why it holds nothing: report and compare quote the reason.
     */
    private static void noteFailure(String reason) {
        RunDirectory run = createdRunDirectory != null ? createdRunDirectory : resumedRunDirectory;
        if (run == null) return;
        // a resume of a run with trials that fails says so too: its cells left read as an interrupted run's, unexplained
        boolean resumedWithTrials = run == resumedRunDirectory && hasTrials(run.path());
        if (hasTrials(run.path()) && !resumedWithTrials) return;
        try {
            run.note((resumedWithTrials ? "the resume failed: " : RunDirectory.FAILED_BEFORE_FIRST_TRIAL) + dev.kensho.core.Credentials.mask(reason));
        } catch (RuntimeException ignored) {
            // a full disk that ended the run cannot take the note either: the error line says it
        }
    }

    /** Removes a run directory this process made that holds nothing but Kensho's own empty files; whether it did. */
    static boolean removeIfEmpty(Path run) {
        if (run == null) return false;
        try {
            if (hasTrials(run)) return false;
            List<Path> files;
            try (var list = Files.list(run)) {
                files = list.toList();
            }
            Set<String> own = Set.of(RunDirectory.RUN, RunDirectory.TRIALS, RunDirectory.SUMMARY);
            // anything else in it was put there by someone else: keep it all
            if (!files.stream().allMatch(f -> own.contains(f.getFileName().toString()))) return false;
            for (Path f : files) Files.delete(f);
            Files.delete(run);
            // ./results made for this run alone was left behind, empty
            Path parent = createdResults;
            if (parent != null && run.getParent() != null && Files.isSameFile(parent, run.getParent())) {
                try (var rest = Files.list(parent)) {
                    if (rest.findAny().isEmpty()) Files.delete(parent);
                }
            }
            return true;
        } catch (IOException ignored) {
            // best effort: an empty run directory left behind is harmless
            return false;
        }
    }
}
