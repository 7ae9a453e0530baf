package dev.kensho.core;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks credentials wherever text leaves the process: output, logs, run.json, reports. A password may hold any
 * character, and a URL that left a space, '@', '/', '?' or '#' in it unencoded is still quoted back (the command
 * line, a parser's error): where a form is ambiguous more is masked rather than less.
 */
public final class Credentials {
    private static final String MASK = "****";
    /** password=, sslpassword=, PGPASSWORD=: any case; libpq's conninfo takes blanks around the '=' too ("password = x"). */
    private static final Pattern PASSWORD_KEY = Pattern.compile("(?i)password[ \t]*=[ \t]*");
    /**
     * //user: (empty user too, as libpq's //:pw@host); not an IPv6 host's [::1]. Also scheme:/user:, one slash: a URL
     * given where a path was expected is quoted as a Path, which keeps one of the two (--password-file URL).
     */
    private static final Pattern USERINFO_START = Pattern.compile("(?://|(?<=[A-Za-z0-9+.-]:)/(?!/))[^/:@\\s\\[\\]?#]*:");
    /** The '?' that starts a URL's parameters: key=... follows (a '?' in a password has no key= after it). */
    private static final Pattern QUERY_START = Pattern.compile("\\?[^\\s&=?@/#]+=");
    /**
     * An '@' after the parameters' start that is followed by what can only be a URL's end (host:port, host/db, then its
     * parameters or nothing): the end of a password that holds "?key=" itself (//u:We1rd@pw/x?a=b@db:5432/test), not a
     * parameter's '@' (user=bob@srv, sslrootcert=/home/bob@corp.com/.postgresql/root.crt).
     */
    private static final String HOST = "(?:\\[[^\\]\\s]*]|[^\\s/?#&=@:\\[\\]]+)", DB = "[^\\s/?#&=@]*";
    private static final Pattern AUTHORITY_AT = Pattern.compile("@" + HOST + "(?::\\d+(?:," + HOST + "(?::\\d+)?)*(?:/" + DB + ")?|/" + DB + ")(?=[?\\s]|$)");
    /** user:password@host without the // (a host name pgjdbc took whole, in its own messages); the last '@' ends it. */
    private static final Pattern BARE_USERINFO = Pattern.compile("(?<![/\\w.-])([\\w.-]+:)[^@/\\s][^/\\s]*@(?=[\\w.\\[-])");
    /** In free text the next argument of a command line: a password= value ends before it. */
    private static final Pattern NEXT_OPTION = Pattern.compile("\\s+--?[A-Za-z]");
    private static final Pattern OPTION = Pattern.compile("(?i)^(--password|--pass|-W)(=)(.*)$");

    /**
     * SQL's PASSWORD 'literal' (CREATE/ALTER ROLE, ENCRYPTED PASSWORD, a foreign server's OPTIONS ("password" '…')): a
     * standard string with '' inside, an E'' string with \' inside, a {@code U&''} or B''/X'' one, a dollar-quoted one, or one
     * left unterminated (a typo the server's error quotes whole), after blanks or comments.
     */
    private static final Pattern SQL_PASSWORD = Pattern.compile(
            "(?i)(\\bPASSWORD\"?(?:\\s|/\\*.*?\\*/)*)(?:E'(?:[^'\\\\]|''|\\\\.)*'|(?:U&|[BX])?'(?:[^']|'')*'|'(?:[^']|'')*\\z"
                    + "|\\$([A-Za-z_][A-Za-z_0-9]*|)\\$.*?\\$\\2\\$)", Pattern.DOTALL);

    /** A conninfo's password=value, or password='value' with its quotes doubled inside a SQL literal. */
    private static final Pattern SQL_CONNINFO_PASSWORD = Pattern.compile("(?i)(\\bpassword\\s*=\\s*)(?:''(?:[^']|'''')*''|[^\\s'&]+)");

    /** Passwords this process connects with, masked wherever they appear (see {@link #remember}). */
    private static final java.util.Set<String> KNOWN = new java.util.concurrent.CopyOnWriteArraySet<>();

    private Credentials() {}

    /**
     * A password Kensho connects with: masked by its value in every text from now on, beside the patterns, which find
     * it only where it follows password=, a URL's user: or SQL's PASSWORD (a --restart-command or a -D value the user
     * wrote it in was stored whole). Not one shorter than 6 characters, nor one that is the user's or the database's
     * name (postgres/postgres): masking those would garble every line that names a role, a database or a word.
     */
    public static void remember(String password, String... names) {
        if (password == null || password.length() < 6 || password.isBlank()) return;
        for (String n : names) if (password.equalsIgnoreCase(n)) return;
        // nor a part of what every URL and message holds: "postgres" masked jdbc:postgresql:// itself
        if (OWN_WORDS.toLowerCase(java.util.Locale.ROOT).contains(password.toLowerCase(java.util.Locale.ROOT))) return;
        KNOWN.add(password);
    }

    /** Each known password as a quoted identifier in any case, compiled once (every masked line may ask for it). */
    private static final java.util.Map<String, Pattern> FOLDED = new java.util.concurrent.ConcurrentHashMap<>();

    /** Words in every URL and in Kensho's own messages, which no password is masked inside. */
    private static final String OWN_WORDS = "jdbc:postgresql://localhost kensho postgresql postgres";

    /** The text with each {@link #remember remembered} password replaced. */
    private static String maskKnown(String text) {
        // the longest first: one password inside another (s3cret in Sup3rS3cretPw) left the rest of the longer one. As
        // written, not in any case: a password Postgres then masked jdbc:postgresql:// in every URL, and no run could start
        for (String k : KNOWN.stream().sorted(java.util.Comparator.comparingInt(String::length).reversed()).toList()) {
            if (text.contains(k)) text = text.replace(k, MASK);
            // and as the server echoes an unquoted word it folded, in any case between double quotes (column "sup3rpw")
            if (text.indexOf('"') >= 0) {
                text = FOLDED.computeIfAbsent(k, x -> Pattern.compile("\"" + Pattern.quote(x) + "\"", Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE))
                        .matcher(text).replaceAll(java.util.regex.Matcher.quoteReplacement("\"" + MASK + "\""));
            }
        }
        return text;
    }

    /**
     * Masks what a SQL text a user gave (a query, a script's command) may hold of a password: the literal after
     * PASSWORD, and password=… or user:password@ in a connection string inside it (dblink, postgres_fdw).
     */
    public static String maskSql(String sql) {
        if (sql == null) return null;
        sql = maskKnown(sql);
        if (!mayHold(sql)) return sql;
        String s = maskPasswordLiterals(sql);
        // inside a SQL literal a conninfo's password= ends at a space or the literal's quote, not at the line's end
        s = SQL_CONNINFO_PASSWORD.matcher(s).replaceAll("$1" + MASK);
        s = maskUserinfo(s, false);
        return BARE_USERINFO.matcher(s).replaceAll("$1" + MASK + "@");
    }

    /**
     * Whether a text can hold anything these masks mask: each needs an '@' (a URL's or a host's userinfo) or the word
     * password (password=, PGPASSWORD=, SQL's PASSWORD '...'). The regular expressions cost 15-20 us a line, and a run's
     * stderr with --verbose-errors passes thousands of lines a second; this look costs a few hundred nanoseconds.
     */
    private static boolean mayHold(String s) {
        if (s.indexOf('@') >= 0) return true;
        for (int i = s.length() - 8; i >= 0; i--) {
            char c = s.charAt(i);
            if ((c == 'p' || c == 'P') && s.regionMatches(true, i, "password", 0, 8)) return true;
        }
        return false;
    }

    /** PASSWORD 'literal' as PASSWORD '****'. */
    private static String maskPasswordLiterals(String sql) {
        return SQL_PASSWORD.matcher(sql).replaceAll("$1'" + MASK + "'");
    }

    /**
     * Masks password=… parameters and user:password@ userinfo in free text (a message, a log line, a stack trace)
     * that may quote a URL. A space ends a URL here, except where what follows can only be the rest of a password:
     * {@code //user:s3cr et@host} (no port before the space, an '@' after it), {@code password=se cret} (up to
     * {@code &}, the line's end or the next option). Use {@link #maskUrl} for a URL or an argument known whole.
     */
    public static String mask(String text) {
        return mask(text, false);
    }

    /**
     * Masks a URL or one command-line argument, whole: every character up to its end may be the password's. A
     * database name with an '@' ({@code //h:5432/my@db}) is masked as user:pa/ss@host would be: more, not less.
     */
    public static String maskUrl(String url) {
        return mask(url, true);
    }

    private static String mask(String text, boolean whole) {
        if (text == null) return null;
        text = maskKnown(text);
        if (!mayHold(text)) return text;
        String s = maskUserinfo(text, whole);
        s = maskPasswordValues(s, whole);
        return BARE_USERINFO.matcher(s).replaceAll("$1" + MASK + "@");
    }

    /**
     * //user:password@host: the password runs to the last '@' before the URL's parameters, as in ConnectionUrl
     * (user=name@server is a parameter's '@'); '/', '@', '#', '?' and (whole) spaces inside it included.
     */
    private static String maskUserinfo(String s, boolean whole) {
        StringBuilder out = new StringBuilder(s.length());
        Matcher m = USERINFO_START.matcher(s);
        int done = 0;
        while (m.find(done)) {
            int from = m.end();
            int tokenEnd = whole ? s.length() : end(s, from, true);
            int at = userinfoEnd(s, from, tokenEnd);
            // free text, a space before any '@': the rest of a password, unless the URL had ended (a path,
            // parameters, a port and a second host)
            if (at < 0 && !whole && !s.substring(from, tokenEnd).matches("(?s)[^/?]*[/?].*|\\d*,.*")) at = acrossSpaces(s, tokenEnd);
            if (at < 0) {
                out.append(s, done, from);
                done = from;
                continue;
            }
            out.append(s, done, from).append(MASK);
            done = at;
        }
        return out.append(s, done, s.length()).toString();
    }

    /**
     * The last '@' in [from, to) before the parameters, or after their start where a host follows it
     * ({@link #AUTHORITY_AT}); -1 when there is none.
     */
    private static int userinfoEnd(String s, int from, int to) {
        Matcher q = QUERY_START.matcher(s).region(from, to);
        int limit = q.find() ? q.start() : to;
        int at = s.lastIndexOf('@', limit - 1);
        Matcher host = AUTHORITY_AT.matcher(s).region(limit, to);
        while (host.find()) at = host.start();
        return at >= from ? at : -1;
    }

    /**
     * Where the password {@link #maskUrl} masks in a URL's userinfo ends: the index of its '@', or -1 when the URL has
     * no user:password@. A parser that reads the URL's password as ending elsewhere must refuse the URL, since the
     * masked text would show the rest of the password as a host, a port or a database.
     */
    public static int passwordEnd(String url) {
        if (url == null) return -1;
        Matcher m = USERINFO_START.matcher(url);
        if (!m.find()) return -1;
        return userinfoEnd(url, m.end(), url.length());
    }

    /**
     * Free text, //user:s3cr then a space: the password goes on to the '@' (the last) of a later word on the line,
     * unless an option or another URL comes first ("//host:5432 as bob@corp" loses its port to the mask: more, not less).
     */
    private static int acrossSpaces(String s, int tokenEnd) {
        int i = tokenEnd;
        while (i < s.length() && s.charAt(i) != '\n' && s.charAt(i) != '\r') {
            if (!Character.isWhitespace(s.charAt(i))) {
                int e = end(s, i, true);
                if (s.charAt(i) == '-' || s.substring(i, e).contains("//")) return -1;
                int at = userinfoEnd(s, i, e);
                if (at >= 0) return at;
                i = e;
            } else {
                i++;
            }
        }
        return -1;
    }

    /** Where a word (atSpace) or a line ends. */
    private static int end(String s, int from, boolean atSpace) {
        int i = from;
        while (i < s.length() && s.charAt(i) != '\n' && s.charAt(i) != '\r' && !(atSpace && Character.isWhitespace(s.charAt(i)))) i++;
        return i;
    }

    /**
     * password=value: pgjdbc takes the value up to the next {@code &}, spaces included, so a URL's value runs to {@code &} or its
     * end; in free text to {@code &}, the line's end, or the next argument of a command line ("--runs 3", "-c 10").
     */
    private static String maskPasswordValues(String s, boolean whole) {
        StringBuilder out = new StringBuilder(s.length());
        Matcher m = PASSWORD_KEY.matcher(s);
        int done = 0;
        while (m.find(done)) {
            int after = m.end() + MASK.length();
            if (s.startsWith(MASK, m.end()) && (after == s.length() || "'\"&),; \t\r\n".indexOf(s.charAt(after)) >= 0)) {
                // masked already (a command line's --password=****, quoted in an error): what follows is not the password's
                out.append(s, done, after);
                done = after;
                continue;
            }
            int end = s.indexOf('&', m.end());
            if (end < 0) end = s.length();
            if (!whole) {
                end = Math.min(end, end(s, m.end(), false));
                Matcher next = NEXT_OPTION.matcher(s).region(m.end(), end);
                if (next.find()) end = next.start();
            }
            out.append(s, done, m.end()).append(MASK);
            done = end;
        }
        return out.append(s, done, s.length()).toString();
    }

    /**
     * Masks text that may be SQL or quote it, or a connection string, or a URL: what a server said (an error quoting
     * the statement, a setting's conninfo), what a user gave. Where results, logs and reports store or print text
     * whose source is not known, this is the mask.
     */
    public static String maskText(String text) {
        return text == null ? null : mask(maskSql(text));
    }

    /**
     * A stream that writes what it is given line by line, each line {@link #maskText masked}: for streams that carry
     * what the server said and the user's scripts (a client's abort quoting its statement), where no single message
     * can be masked at its source. Not flushed by its prints (a password split over two prints would pass in halves):
     * a line goes on at its end, what remains of one on an explicit flush ("starting vacuum...").
     */
    public static java.io.PrintStream masking(java.io.PrintStream to) {
        return new java.io.PrintStream(new java.io.OutputStream() {
            private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();

            @Override
            public synchronized void write(int b) {
                line.write(b);
                if (b == '\n') flush();
            }

            @Override
            public synchronized void flush() {
                if (line.size() > 0) to.print(maskText(line.toString(java.nio.charset.StandardCharsets.UTF_8)));
                line.reset();
                to.flush();
            }
        }, false, java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * Whether the argument after this one is a password: --password, and what a psql user may try with the password
     * after it (--pass, -W), which Kensho refuses as unknown options while quoting them.
     */
    public static boolean takesPassword(String option) {
        return option.equalsIgnoreCase("--password") || option.equals("--pass") || option.equals("-W");
    }

    /** Masks a command line: the value after a password option, and URLs (each argument whole). */
    public static String[] maskArgs(String[] args) {
        String[] out = new String[args.length];
        boolean nextIsSecret = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            a = maskKnown(a);
            if (nextIsSecret) {
                out[i] = MASK;
                nextIsSecret = false;
                continue;
            }
            Matcher m = OPTION.matcher(a);
            if (m.matches()) {
                out[i] = m.group(1) + "=" + MASK;
            } else {
                if (takesPassword(a)) nextIsSecret = true;
                // an argument may be SQL (bench query -c "ALTER ROLE ... PASSWORD '...'")
                out[i] = maskUrl(maskPasswordLiterals(a));
            }
        }
        return out;
    }
}
