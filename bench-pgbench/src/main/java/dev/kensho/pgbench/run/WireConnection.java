package dev.kensho.pgbench.run;

import com.ongres.scram.client.ScramClient;
import dev.kensho.core.server.UnixSocketFactory;
import dev.kensho.core.server.WireLogin;
import dev.kensho.pgbench.QueryMode;
import dev.kensho.pgbench.script.ClientScriptRunner;
import dev.kensho.pgbench.script.Command;
import dev.kensho.pgbench.script.ServerError;
import dev.kensho.pgbench.script.expr.EvalException;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * One client's connection speaking PostgreSQL's frontend/backend protocol (v3) itself, for the multiplexing
 * engine: a pgbench thread sends its clients' commands and waits for whichever answers first, as pgbench does
 * with libpq's asynchronous calls; pgjdbc can only block a thread per connection. The messages are libpq's:
 * -M simple sends Query; extended sends Parse (unnamed), Bind, Describe portal, Execute, Sync; prepared parses
 * each command once into a named statement, then Bind, Describe, Execute, Sync. Parameters and results are text.
 * A pipeline is libpq's too: its commands go without Sync into one buffer that \endpipeline sends with the last
 * Sync (\syncpipeline adds one in between); the results are read to the last ReadyForQuery and the first error is
 * the one reported. In prepared mode \startpipeline first prepares the pipeline's statements, each with its own
 * Sync, as pgbench does (sent together where pgbench waits for each: once per connection).
 *
 * <p>Logging in blocks (as pgbench's connect does); afterwards the channel is non-blocking and {@link #read}
 * takes whatever has arrived. After an error inside a transaction block the connection sends ROLLBACK itself
 * before it reports the error, as pgbench does before a retry, so the client's next transaction starts clean.
 * TLS as libpq speaks it for sslmode prefer and require (see {@link TlsLayer}); the modes that verify the server's
 * certificate make {@link #open} throw {@link Unsupported}, and the run uses the pgjdbc engine.
 */
final class WireConnection implements Closeable {
    /** Thrown when a login cannot be done here (TLS) rather than failing: the caller falls back to pgjdbc. */
    static class Unsupported extends IOException {
        Unsupported(String m) {
            super(m);
        }
    }

    /** The session's client_encoding has no Java charset: {@link #encoding} names it. */
    static final class UnsupportedEncoding extends Unsupported {
        final String encoding;

        UnsupportedEncoding(String encoding) {
            super("the session's client_encoding " + encoding + " (the database's, unless the login or a setting names another)"
                    + " has no Java charset for the wire engine");
            this.encoding = encoding;
        }
    }

    /** A login refused by the server, with its SQLSTATE (28P01 for a wrong password, 57P03 while starting up). */
    static final class LoginRefused extends IOException {
        final String sqlState;

        LoginRefused(String sqlState, String m) {
            super(m);
            this.sqlState = sqlState;
        }
    }

    private final SocketChannel ch;
    /** Null in clear text. */
    private TlsLayer tls;
    private final QueryMode mode;
    private ByteBuffer in = ByteBuffer.allocate(1 << 16);
    private ByteBuffer out = ByteBuffer.allocate(1 << 13);
    private final Map<Command, String> statements = new IdentityHashMap<>();
    /** A pipeline's statements the server refused to prepare at \startpipeline: tried once per connection, as pgbench does. */
    private final java.util.Set<Command> refusedPrepares = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    private int statementNumber;
    private char txStatus = 'I';
    /**
     * The session's client_encoding, as the server reports it: libpq asks for none, so it is the database's unless the
     * login's options or a setting of the server, database or role name another.
     */
    private Charset charset = StandardCharsets.UTF_8;
    private String clientEncoding = "UTF8";
    /** TimeZone and DateStyle as the server reported them at login, where no client asked for any (libpq's session). */
    private String timeZone, dateStyle;

    // the command in flight
    private ClientScriptRunner runner;
    private Command.Store store;
    private String[] names;
    private String[] lastRow;
    private int tuples;
    private boolean rowsResult;
    private String errorState, errorMessage;
    /** The in-flight command's error, whole (errorState and errorMessage are its SQLSTATE and first line). */
    private ServerError error;
    private EvalException storeError;
    private boolean rollingBack;
    /** Statements parsed by what is in flight, in order, until their ParseComplete: forgotten if it never comes. */
    private final ArrayDeque<String> unconfirmed = new ArrayDeque<>();
    /** ReadyForQuery messages still to come for what is in flight (one per Sync). */
    private int syncsAwaited;
    /** What is in flight is a pipeline's results: nothing to hand to the runner but the first error. */
    private boolean pipelineResults;
    /** A COPY answered the command: what the server sends up to its ReadyForQuery is skipped, and the client aborts. */
    private boolean copying;
    /** What is in flight is \startpipeline's Parse+Sync per statement (prepared mode): errors there are not the run's. */
    private boolean preparing;

    /** Syncs in the open pipeline, whose messages wait in {@link #out} until \endpipeline. */
    private int pipelineSyncs;
    /** Between \startpipeline and \endpipeline: {@link #out} (write mode) holds the messages queued so far. */
    private boolean pipelineOpen;
    /**
     * The open pipeline's SQL commands in the order queued, the results read of them, and the one whose error is the
     * pipeline's: libpq words that error with the failed command's line and a caret, as outside a pipeline.
     */
    private final List<Command> pipelined = new ArrayList<>();
    private int pipelineResultsRead;
    private Command pipelineFailed;

    private WireConnection(SocketChannel ch, QueryMode mode) {
        this.ch = ch;
        this.mode = mode;
        in.flip();
    }

    /** Closes the channels of logins that outlive their timeout (one daemon thread, made at the first such login). */
    private static volatile java.util.concurrent.ScheduledExecutorService loginWatch;

    private static java.util.concurrent.ScheduledExecutorService loginWatch() {
        if (loginWatch == null) {
            synchronized (WireConnection.class) {
                if (loginWatch == null) {
                    loginWatch = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                        Thread t = new Thread(r, "kensho-wire-login-timeout");
                        t.setDaemon(true);
                        return t;
                    });
                }
            }
        }
        return loginWatch;
    }

    /**
     * Connects and logs in (blocking); the channel is non-blocking afterwards. With a login timeout, a login still
     * under way when it expires has its channel closed, and fails as libpq's: "timeout expired".
     */
    static WireConnection open(WireLogin login, QueryMode mode) throws IOException {
        if (login.pgjdbcOnly() != null) throw new Unsupported(login.pgjdbcOnly());
        SocketChannel ch = login.socketFile() != null ? UnixSocketFactory.open(login.socketFile()) : SocketChannel.open();
        java.util.concurrent.atomic.AtomicBoolean expired = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.ScheduledFuture<?> watch = login.timeoutSeconds() <= 0 ? null : loginWatch().schedule(() -> {
            expired.set(true);
            try {
                ch.close();   // the blocked connect or read throws
            } catch (IOException ignored) {
                // closed already
            }
        }, login.timeoutSeconds(), java.util.concurrent.TimeUnit.SECONDS);
        try {
            if (login.socketFile() == null) {
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                InetSocketAddress at = new InetSocketAddress(login.host(), login.port());
                // an IOException, as pgjdbc's: the caller says the host is unknown (not "UnresolvedAddressException: null")
                if (at.isUnresolved()) throw new java.net.UnknownHostException("unknown host " + login.host());
                ch.connect(at);
            }
            WireConnection c = new WireConnection(ch, mode);
            c.login(login);
            if (watch != null && !watch.cancel(false) || expired.get()) throw new java.nio.channels.AsynchronousCloseException();
            ch.configureBlocking(false);
            return c;
        } catch (IOException | RuntimeException e) {
            if (watch != null) watch.cancel(false);
            ch.close();
            if (expired.get()) throw new IOException("timeout expired (the login took longer than its " + login.timeoutSeconds() + " s)", e);
            throw e;
        }
    }

    SocketChannel channel() {
        return ch;
    }

    /** The session's TimeZone from login (null if the server reported none). */
    String timeZone() {
        return timeZone;
    }

    /** The session's DateStyle from login (null if the server reported none). */
    String dateStyle() {
        return dateStyle;
    }

    /** Whether the session is inside a transaction block (ReadyForQuery's status), as last reported. */
    boolean inTransaction() {
        return txStatus != 'I';
    }

    // ------------------------------------------------------------------ login

    private void login(WireLogin login) throws IOException {
        String ssl = login.sslMode();
        if (ssl.startsWith("verify")) {
            throw new Unsupported("sslmode=" + ssl + " verifies the server's certificate, which Kensho's wire engine does not");
        }
        if (!ssl.equals("disable") && !ssl.equals("allow")) {
            // libpq's and pgjdbc's "prefer": ask for TLS first, and use it where the server offers it
            out.clear();
            out.putInt(8).putInt(80877103);
            flushBlocking();
            ByteBuffer one = ByteBuffer.allocate(1);
            while (one.hasRemaining()) {
                if (ch.read(one) < 0) throw new IOException("server closed the connection during the SSL request");
            }
            if (one.get(0) == 'S') {
                tls = TlsLayer.handshake(ch, login.host(), login.port());
            } else if (!ssl.equals("prefer")) {
                throw new LoginRefused("08004", "server does not support SSL, but SSL was required (sslmode=" + ssl + ")");
            }
        }
        out.clear();
        out.putInt(0).putInt(196608);
        cstring("user").cstring(login.user());
        cstring("database").cstring(login.database());
        // no client_encoding, as libpq: the server then converts nothing, whatever the database's encoding
        for (var e : login.startupParameters().entrySet()) cstring(e.getKey()).cstring(e.getValue());
        out.put((byte) 0);
        out.putInt(0, out.position());
        flushBlocking();
        ScramClient scram = null;
        while (true) {
            char type = nextMessageBlocking();
            int len = in.getInt() - 4;
            int end = in.position() + len;
            switch (type) {
                case 'R' -> {
                    int code = in.getInt();
                    switch (code) {
                        case 0 -> { }   // AuthenticationOk
                        case 3 -> passwordMessage(password(login).getBytes(StandardCharsets.UTF_8));
                        case 5 -> {
                            byte[] salt = new byte[4];
                            in.get(salt);
                            passwordMessage(md5(password(login), login.user(), salt));
                        }
                        case 10 -> {
                            List<String> mechanisms = new ArrayList<>();
                            for (String m; !(m = cstringIn()).isEmpty(); ) mechanisms.add(m);
                            if (!mechanisms.contains("SCRAM-SHA-256")) {
                                throw new Unsupported("the server offers SASL " + mechanisms + " only (channel binding needs TLS)");
                            }
                            scram = ScramClient.builder().advertisedMechanisms(List.of("SCRAM-SHA-256"))
                                    .username("*").password(password(login).toCharArray()).build();
                            byte[] first = scram.clientFirstMessage().toString().getBytes(StandardCharsets.UTF_8);
                            out.clear();
                            out.put((byte) 'p').putInt(0);
                            cstring("SCRAM-SHA-256");
                            out.putInt(first.length).put(first);
                            out.putInt(1, out.position() - 1);
                            flushBlocking();
                        }
                        case 11 -> {
                            byte[] b = new byte[end - in.position()];
                            in.get(b);
                            try {
                                scram.serverFirstMessage(new String(b, StandardCharsets.UTF_8));
                            } catch (Exception e) {
                                throw new IOException("SCRAM: " + e.getMessage(), e);
                            }
                            byte[] fin = scram.clientFinalMessage().toString().getBytes(StandardCharsets.UTF_8);
                            out.clear();
                            out.put((byte) 'p').putInt(4 + fin.length).put(fin);
                            flushBlocking();
                        }
                        case 12 -> {
                            byte[] b = new byte[end - in.position()];
                            in.get(b);
                            try {
                                scram.serverFinalMessage(new String(b, StandardCharsets.UTF_8));
                            } catch (Exception e) {
                                throw new IOException("SCRAM: the server's signature does not verify: " + e.getMessage(), e);
                            }
                        }
                        default -> throw new Unsupported("authentication method " + code + " is not spoken by Kensho's wire engine");
                    }
                }
                case 'E' -> {
                    readError(end);
                    throw new LoginRefused(errorState, errorMessage);
                }
                case 'Z' -> {
                    txStatus = (char) in.get();
                    in.position(end);
                    return;
                }
                case 'S' -> {   // ParameterStatus
                    switch (cstringIn()) {
                        case "client_encoding" -> {
                            clientEncoding = cstringIn();
                            charset = javaCharset(clientEncoding);
                        }
                        case "TimeZone" -> timeZone = cstringIn();
                        case "DateStyle" -> dateStyle = cstringIn();
                        default -> { }
                    }
                }
                default -> { }   // BackendKeyData, NoticeResponse: nothing a client needs here
            }
            in.position(end);
        }
    }

    /**
     * The Java charset of a PostgreSQL encoding name, so that SQL, parameters and \gset values cross unchanged;
     * one Java lacks makes the run use pgjdbc (which asks for UTF8 and lets the server convert).
     */
    static Charset javaCharset(String pg) throws UnsupportedEncoding {
        String name = switch (pg.toUpperCase(java.util.Locale.ROOT)) {
            case "UTF8" -> "UTF-8";
            case "SQL_ASCII" -> "ISO-8859-1";   // bytes as they are, whatever they mean
            case "LATIN1" -> "ISO-8859-1";
            case "LATIN2" -> "ISO-8859-2";
            case "LATIN3" -> "ISO-8859-3";
            case "LATIN4" -> "ISO-8859-4";
            case "LATIN5" -> "ISO-8859-9";
            case "LATIN7" -> "ISO-8859-13";
            case "LATIN9" -> "ISO-8859-15";
            case "ISO_8859_5" -> "ISO-8859-5";
            case "ISO_8859_6" -> "ISO-8859-6";
            case "ISO_8859_7" -> "ISO-8859-7";
            case "ISO_8859_8" -> "ISO-8859-8";
            case "EUC_JP" -> "EUC-JP";
            case "EUC_CN" -> "GB2312";
            case "EUC_KR" -> "EUC-KR";
            case "EUC_TW" -> "x-EUC-TW";
            case "KOI8R" -> "KOI8-R";
            case "KOI8U" -> "KOI8-U";
            case "WIN866" -> "IBM866";
            case "WIN874" -> "x-windows-874";
            case "WIN1250", "WIN1251", "WIN1252", "WIN1253", "WIN1254", "WIN1255", "WIN1256", "WIN1257", "WIN1258" ->
                    "windows-" + pg.substring(3);
            default -> null;
        };
        if (name == null || !Charset.isSupported(name)) throw new UnsupportedEncoding(pg);
        return Charset.forName(name);
    }

    /** The session's client_encoding, as the server reported it at login (or a SET since). */
    String clientEncoding() {
        return clientEncoding;
    }

    private static String password(WireLogin login) throws LoginRefused {
        if (login.password() == null) {
            throw new LoginRefused("28P01", "the server asks for a password and none was given (--password-file, PGPASSWORD or ~/.pgpass)");
        }
        return login.password();
    }

    private void passwordMessage(byte[] pw) throws IOException {
        out.clear();
        out.put((byte) 'p').putInt(4 + pw.length + 1).put(pw).put((byte) 0);
        flushBlocking();
    }

    /** PostgreSQL's md5 password: "md5" + md5(md5(password + user) + salt), hex. */
    private static byte[] md5(String password, String user, byte[] salt) {
        try {
            MessageDigest md = MessageDigest.getInstance("MD5");
            String inner = HexFormat.of().formatHex(md.digest((password + user).getBytes(StandardCharsets.UTF_8)));
            md.update(inner.getBytes(StandardCharsets.US_ASCII));
            md.update(salt);
            return ("md5" + HexFormat.of().formatHex(md.digest())).getBytes(StandardCharsets.US_ASCII);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private void flushBlocking() throws IOException {
        out.flip();
        if (tls == null) {
            while (out.hasRemaining()) ch.write(out);
        } else {
            tls.wrap(out);
            while (!tls.flush()) Thread.onSpinWait();
        }
        out.clear();
    }

    /** Writes {@link #out} (read mode) as far as the socket takes it now; {@link #flush} writes the rest. */
    private void write() throws IOException {
        if (tls == null) {
            ch.write(out);
        } else {
            tls.wrap(out);
            tls.flush();
        }
    }

    /** Blocks until a whole message is buffered; returns its type with {@link #in} at its length word. */
    private char nextMessageBlocking() throws IOException {
        while (!wholeMessage()) {
            fill();
        }
        return (char) in.get();
    }

    // ------------------------------------------------------------------ commands

    /**
     * Sends the runner's pending command, or for \endpipeline the open pipeline with its last Sync (non-blocking;
     * a full socket buffer is left to {@link #flush}).
     */
    void send(ClientScriptRunner r) throws IOException {
        Command cmd = r.pending();
        inFlight(r, cmd.store());
        if (cmd.kind() == Command.Kind.ENDPIPELINE) {
            pipelineOpen = false;
            sync();
            syncsAwaited = pipelineSyncs;
            pipelineResults = true;
            pipelineResultsRead = 0;
        } else {
            out.clear();
            if (mode == QueryMode.SIMPLE) {
                query(r.simpleQuery(cmd));
            } else {
                extendedQuery(r, cmd);
                sync();
            }
            syncsAwaited = 1;   // a Sync's or the simple Query's ReadyForQuery
        }
        out.flip();
        write();
    }

    /**
     * Does the pending pipeline command: \startpipeline, an SQL command inside, \syncpipeline. True when it sent
     * something to wait for (the Parse+Sync of \startpipeline in prepared mode, answered by {@link #read}); false
     * when it is done (queued: the pipeline leaves at \endpipeline).
     */
    boolean pipe(ClientScriptRunner r) throws IOException {
        Command cmd = r.pending();
        switch (cmd.kind()) {
            case STARTPIPELINE -> {
                if (mode == QueryMode.PREPARED) {
                    out.clear();
                    int n = 0;
                    for (Command c : r.pipelineCommands()) {
                        if (statements.containsKey(c) || refusedPrepares.contains(c)) continue;
                        String name = "P_" + statementNumber++;
                        parse(name, c.wireSql());
                        sync();
                        statements.put(c, name);
                        unconfirmed.add(name);
                        n++;
                    }
                    if (n > 0) {
                        inFlight(r, Command.Store.NONE);
                        syncsAwaited = n;
                        preparing = true;
                        out.flip();
                        write();
                        return true;
                    }
                }
                openPipeline();
            }
            case SYNCPIPELINE -> {
                sync();
                pipelineSyncs++;
            }
            default -> {
                extendedQuery(r, cmd);
                pipelined.add(cmd);
            }
        }
        return false;
    }

    private void openPipeline() {
        out.clear();
        pipelineOpen = true;
        pipelineSyncs = 1;   // \endpipeline's
        pipelined.clear();
    }

    private void inFlight(ClientScriptRunner r, Command.Store s) {
        runner = r;
        store = s;
        rowsResult = false;
        names = null;
        lastRow = null;
        tuples = 0;
        errorState = null;
        errorMessage = null;
        error = null;
        storeError = null;
        rollingBack = false;
        pipelineResults = false;
        pipelineFailed = null;
        preparing = false;
        copying = false;
    }

    /** Parse (unless prepared already), Bind, Describe portal, Execute: libpq's PQsendQueryParams/PQsendQueryPrepared without the Sync. */
    private void extendedQuery(ClientScriptRunner r, Command cmd) {
        String name = "";
        if (mode == QueryMode.PREPARED) {
            name = statements.get(cmd);
            if (name == null) {
                name = "P_" + statementNumber++;
                parse(name, cmd.wireSql());
                statements.put(cmd, name);
                unconfirmed.add(name);
            }
        } else {
            parse("", cmd.wireSql());
            unconfirmed.add("");
        }
        bind(name, r.parameters(cmd));
        room(16);
        out.put((byte) 'D').putInt(6).put((byte) 'P').put((byte) 0);
        out.put((byte) 'E').putInt(9).put((byte) 0).putInt(0);
    }

    private void sync() {
        room(5);
        out.put((byte) 'S').putInt(4);
    }

    /** Writes what a full socket buffer kept back; true when nothing is left. */
    boolean flush() throws IOException {
        if (tls != null) return tls.flush();
        if (out.hasRemaining()) ch.write(out);
        return !out.hasRemaining();
    }

    boolean pendingWrite() {
        return tls != null ? tls.pending() : out.hasRemaining();
    }

    private void copyFail() {
        byte[] b = ClientScriptRunner.COPY_UNSUPPORTED.getBytes(StandardCharsets.US_ASCII);
        room(b.length + 6);
        out.put((byte) 'f').putInt(4 + b.length + 1).put(b).put((byte) 0);
    }

    private void query(String sql) {
        byte[] b = sql.getBytes(charset);
        room(b.length + 6);
        out.put((byte) 'Q').putInt(4 + b.length + 1).put(b).put((byte) 0);
    }

    private void parse(String name, String sql) {
        byte[] n = name.getBytes(StandardCharsets.US_ASCII);
        byte[] b = sql.getBytes(charset);
        room(n.length + b.length + 9);
        out.put((byte) 'P').putInt(4 + n.length + 1 + b.length + 1 + 2).put(n).put((byte) 0).put(b).put((byte) 0).putShort((short) 0);
    }

    private void bind(String statement, String[] params) {
        byte[] s = statement.getBytes(StandardCharsets.US_ASCII);
        byte[][] values = new byte[params.length][];
        int len = 4 + 1 + s.length + 1 + 2 + 2 + 4;   // length, portal, statement, 0 formats, count, results in text
        for (int i = 0; i < params.length; i++) {
            if (params[i] != null) {
                values[i] = params[i].getBytes(charset);
                len += 4 + values[i].length;
            } else {
                len += 4;
            }
        }
        room(len + 1 + 64);
        out.put((byte) 'B').putInt(len).put((byte) 0).put(s).put((byte) 0).putShort((short) 0).putShort((short) params.length);
        for (byte[] v : values) {
            if (v == null) {
                out.putInt(-1);
            } else {
                out.putInt(v.length).put(v);
            }
        }
        out.putShort((short) 1).putShort((short) 0);
    }

    private void room(int n) {
        if (out.remaining() < n + 64) {
            ByteBuffer bigger = ByteBuffer.allocate(Math.max(out.capacity() * 2, out.position() + n + 64));
            out.flip();
            bigger.put(out);
            out = bigger;
        }
    }

    /**
     * Reads what has arrived and feeds the command's results to the runner; returns the runner's next step
     * once the answer is complete (after ReadyForQuery), null while it is not.
     *
     * @throws IOException when the connection broke (the caller reports the command as failed by a lost connection)
     */
    ClientScriptRunner.Step read() throws IOException {
        fill();
        while (true) {
            while (wholeMessage()) {
                char type = (char) in.get();
                int len = in.getInt();   // before position(): Java evaluates left to right
                int end = in.position() + len - 4;
                if (runner == null) {   // nothing in flight: a notice, or the server's FATAL before it closes
                    if (type == 'E') readError(end);
                    in.position(end);
                    continue;
                }
                if (copying) {
                    // a COPY's data and end, and the error the CopyFail brought: pgbench discards them as it aborts
                    if (type != 'Z') {
                        in.position(end);
                        continue;
                    }
                    copying = false;
                    txStatus = (char) in.get();
                    in.position(end);
                    ClientScriptRunner r = runner;
                    runner = null;
                    return r.copyRefused();
                }
                switch (type) {
                    case 'G', 'H', 'W' -> {
                        // CopyIn/Out/BothResponse: pgbench has no COPY ("COPY is not supported in pgbench, aborting").
                        // A copy in waits for the client's data: a CopyFail ends it (and a Sync the extended protocol,
                        // whose Sync sent with the Execute the copy ignored), or client and server waited for each other
                        copying = true;
                        if (type != 'H') {
                            out.clear();
                            copyFail();
                            if (mode != QueryMode.SIMPLE) sync();
                            out.flip();
                            write();
                        }
                    }
                    case 'T' -> {   // RowDescription
                        rowsResult = true;
                        tuples = 0;
                        lastRow = null;
                        if (store != Command.Store.NONE) {
                            names = new String[in.getShort()];
                            for (int i = 0; i < names.length; i++) {
                                names[i] = cstringIn();
                                in.position(in.position() + 18);
                            }
                        }
                    }
                    case 'D' -> {   // DataRow: only the last one is kept, and only for \gset/\aset
                        tuples++;
                        if (store != Command.Store.NONE) {
                            String[] row = new String[in.getShort()];
                            for (int i = 0; i < row.length; i++) {
                                int n = in.getInt();
                                if (n < 0) {
                                    row[i] = "";
                                } else {
                                    row[i] = new String(in.array(), in.arrayOffset() + in.position(), n, charset);
                                    in.position(in.position() + n);
                                }
                            }
                            lastRow = row;
                        }
                    }
                    case 'C', 'I' -> {   // CommandComplete, EmptyQueryResponse: one result of the command
                        if (pipelineResults) pipelineResultsRead++;
                        if (!rollingBack && errorState == null && !pipelineResults) {
                            if (rowsResult) {
                                try {
                                    runner.rows(names, tuples, lastRow);
                                } catch (EvalException e) {
                                    if (storeError == null) storeError = e;
                                }
                            } else {
                                runner.noRows();
                            }
                        }
                        rowsResult = false;
                    }
                    case 'E' -> {
                        if (preparing) {
                            // pgbench logs a failed prepare and goes on; the statement is parsed again where it runs (a
                            // branch the client never takes: the line is all that tells of it)
                            String name = unconfirmed.poll();
                            ServerError failed = errorFields(end);
                            statements.entrySet().stream().filter(e -> e.getValue().equals(name)).findFirst().ifPresent(e -> {
                                refusedPrepares.add(e.getKey());
                                runner.prepareFailed(failed.libpqText(e.getKey().wireSql()));
                            });
                            statements.values().remove(name);
                        } else if (!rollingBack && errorState == null) {
                            readError(end);
                            // the results come in the order the commands were queued; the first error is the pipeline's
                            if (pipelineResults && pipelineResultsRead < pipelined.size()) pipelineFailed = pipelined.get(pipelineResultsRead);
                        }
                    }
                    case 'Z' -> {
                        txStatus = (char) in.get();
                        in.position(end);
                        if (!rollingBack && --syncsAwaited > 0) continue;
                        if (preparing) {
                            ClientScriptRunner r = runner;
                            runner = null;
                            preparing = false;
                            openPipeline();
                            return r.piped();
                        }
                        if (errorState != null && txStatus != 'I' && !rollingBack) {
                            // pgbench ends a failed transaction before it goes on (retry or next transaction)
                            rollingBack = true;
                            out.clear();
                            query("ROLLBACK");
                            out.flip();
                            write();
                            continue;
                        }
                        ClientScriptRunner r = runner;
                        runner = null;
                        if (errorState != null) {
                            // the server skipped every Parse after the error, up to the Sync
                            for (String name : unconfirmed) statements.values().remove(name);
                            unconfirmed.clear();
                            return r.sqlFailed(error, pipelineFailed, false);
                        }
                        if (storeError != null) return r.storeFailed(storeError);
                        return r.sqlDone(txStatus != 'I');
                    }
                    case '1' -> unconfirmed.poll();   // ParseComplete: the statement exists, whatever happens next
                    case 'N' -> {   // NoticeResponse: libpq's default notice processor prints it, so pgbench's stderr has it
                        if (!rollingBack) {
                            runner.notice(errorFields(end));
                        }
                    }
                    default -> { }   // BindComplete, NoData, ParameterStatus...
                }
                in.position(end);
            }
            // TLS plaintext decrypted beyond the buffer's room: no selector will announce it
            if (tls == null || !tls.buffered()) return null;
            fill();
        }
    }

    /**
     * The connection broke while a command was in flight: the runner's step for a lost connection, with the
     * server's last word when it sent one (a FATAL at shutdown) rather than the socket's.
     */
    ClientScriptRunner.Step broken(IOException e) {
        ClientScriptRunner r = runner;
        runner = null;
        close();
        return error != null ? r.sqlFailed(error, true) : r.sqlFailed("08006", String.valueOf(e.getMessage()), true);
    }

    /**
     * Sends simple queries between the warm-up and the run (nothing in flight; DEALLOCATE ALL: the run starts as
     * pgbench's does), each a Query message of its own: a string of several is one statement to statement_timeout,
     * whose SET LOCAL within it then came too late. An error is not the run's concern: it meets whatever is wrong itself.
     */
    void sendBetweenPhases(java.util.List<String> sqls) throws IOException {
        out.clear();
        for (String sql : sqls) query(sql);
        betweenPhasesLeft = sqls.size();
        out.flip();
        write();
        while (!flush()) java.util.concurrent.locks.LockSupport.parkNanos(20_000);
    }

    /** The answers (ReadyForQuery) {@link #sendBetweenPhases}'s queries still owe. */
    private int betweenPhasesLeft;

    /**
     * Waits for the end of {@link #sendBetweenPhases}'s queries.
     *
     * @param deallocates the SQL dropped every prepared statement: forget ours
     */
    void awaitBetweenPhases(boolean deallocates) throws IOException {
        while (true) {
            fill();
            while (wholeMessage()) {
                char type = (char) in.get();
                int len = in.getInt();   // before position(): Java evaluates left to right
                int end = in.position() + len - 4;
                if (type == 'Z') {
                    txStatus = (char) in.get();
                    in.position(end);
                    if (--betweenPhasesLeft > 0) continue;
                    if (deallocates) {
                        statements.clear();
                        statementNumber = 0;
                    }
                    return;
                }
                in.position(end);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(20_000);
        }
    }

    private void readError(int end) {
        var f = errorFields(end);
        errorState = f.sqlState() == null ? "XX000" : f.sqlState();
        String severity = f.severity() == null ? "ERROR" : f.severity();
        errorMessage = severity + ": " + f.message();
        error = new ServerError(severity, errorState, f.message(), f.detail(), f.hint(), f.position(),
                f.internalQuery(), f.internalPosition(), f.context());
    }

    /** An ErrorResponse's or NoticeResponse's fields (those libpq shows at its default verbosity). */
    private ServerError errorFields(int end) {
        String severity = null, state = null, message = null, detail = null, hint = null, internalQuery = null, context = null;
        int position = 0, internalPosition = 0;
        while (in.position() < end) {
            byte field = in.get();
            if (field == 0) break;
            String v = cstringIn();
            switch (field) {
                case 'V' -> severity = v;
                case 'S' -> { if (severity == null) severity = v; }
                case 'C' -> state = v;
                case 'M' -> message = v;
                case 'D' -> detail = v;
                case 'H' -> hint = v;
                case 'P' -> position = positionOf(v);
                case 'p' -> internalPosition = positionOf(v);
                case 'q' -> internalQuery = v;
                case 'W' -> context = v;
                default -> { }
            }
        }
        return new ServerError(severity, state, message, detail, hint, position, internalQuery,
                internalPosition, context);
    }

    private static int positionOf(String v) {
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private boolean wholeMessage() {
        if (in.remaining() < 5) return false;
        int len = in.getInt(in.position() + 1);
        if (in.remaining() >= len + 1) return true;
        if (len + 1 > in.capacity()) {
            ByteBuffer bigger = ByteBuffer.allocate(len + 1 + 4096);
            bigger.put(in);
            bigger.flip();
            in = bigger;
        }
        return false;
    }

    /** Reads what the socket has (blocking mode: waits for something). */
    private void fill() throws IOException {
        in.compact();
        int n;
        try {
            n = tls == null ? ch.read(in) : tls.read(in);
        } finally {
            in.flip();
        }
        if (n < 0) throw new IOException("server closed the connection unexpectedly");
    }

    private WireConnection cstring(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        room(b.length + 1);
        out.put(b).put((byte) 0);
        return this;
    }

    private String cstringIn() {
        int start = in.position();
        int p = start;
        while (in.get(p) != 0) p++;
        String s = new String(in.array(), in.arrayOffset() + start, p - start, charset);
        in.position(p + 1);
        return s;
    }

    /** Whether the socket is still open: {@link #broken} closed it, the session is gone. */
    boolean isOpen() {
        return ch.isOpen();
    }

    @Override
    public void close() {
        try {
            if (ch.isOpen() && ch.isConnected()) {
                // A client aborted inside a pipeline: libpq's PQfinish flushes what the pipeline queued before its
                // Terminate, so the server runs it (a COMMIT or \syncpipeline in it commits, the rest rolls back).
                if (!pipelineOpen) out.clear();
                pipelineOpen = false;
                room(5);
                out.put((byte) 'X').putInt(4);
                out.flip();
                write();
                if (tls != null) tls.close();
            }
        } catch (IOException ignored) {
            // closing anyway
        }
        try {
            ch.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
    }
}
