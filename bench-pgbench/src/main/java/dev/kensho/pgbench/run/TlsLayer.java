package dev.kensho.pgbench.run;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * TLS between {@link WireConnection}'s protocol buffers and its socket, once the server has answered the SSLRequest
 * with 'S'. It encrypts without checking the server's certificate: what sslmode prefer and require mean to libpq and
 * pgjdbc (the verifying modes are left to pgjdbc). The handshake blocks, as logging in does; afterwards reads and
 * writes follow the channel's mode. Decrypted bytes the caller had no room for wait here, where no selector sees
 * them: {@link #buffered()} says so.
 */
final class TlsLayer {
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    /** prefer/require: the channel is encrypted, the peer not authenticated (libpq checks nothing either). */
    private static final X509TrustManager ANY_SERVER = new X509TrustManager() {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
            // a client's certificate is never asked of us
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            // not verified, by the meaning of sslmode prefer/require
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    };

    private final SocketChannel ch;
    private final SSLEngine engine;
    // all three in write mode: records read and not yet decrypted; records made and not yet written; plaintext not yet taken
    private ByteBuffer netIn, netOut, plain;
    private boolean eof;

    private TlsLayer(SocketChannel ch, SSLEngine engine) {
        this.ch = ch;
        this.engine = engine;
        netIn = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        netOut = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        plain = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
    }

    /** Shakes hands over a blocking channel on which the server has just accepted the SSLRequest. */
    static TlsLayer handshake(SocketChannel ch, String host, int port) throws IOException {
        SSLEngine engine;
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, new TrustManager[] {ANY_SERVER}, null);
            engine = ctx.createSSLEngine(host, port);
        } catch (GeneralSecurityException e) {
            throw new IOException("TLS: " + e.getMessage(), e);
        }
        engine.setUseClientMode(true);
        TlsLayer t = new TlsLayer(ch, engine);
        engine.beginHandshake();
        while (true) {
            switch (engine.getHandshakeStatus()) {
                case NEED_WRAP -> {
                    t.wrap(EMPTY);
                    while (!t.flush()) Thread.onSpinWait();
                }
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    SSLEngineResult r = t.unwrap();
                    if (r.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW && ch.read(t.netIn) < 0) {
                        throw new IOException("server closed the connection during the TLS handshake");
                    }
                    if (r.getStatus() == SSLEngineResult.Status.CLOSED) throw new IOException("TLS: the server closed the handshake");
                }
                case NEED_TASK -> t.runTasks();
                default -> {   // FINISHED, NOT_HANDSHAKING
                    return t;
                }
            }
        }
    }

    /**
     * Moves plaintext into {@code dst} (write mode): what is decrypted already, else what the socket has (blocking
     * or not, as the channel is). Returns the bytes added, -1 at the end of the stream.
     */
    int read(ByteBuffer dst) throws IOException {
        int start = dst.position();
        decrypt();
        if (plain.position() == 0 && !eof) {
            int n = ch.read(netIn);
            if (n < 0) eof = true;
            if (n > 0) decrypt();
        }
        plain.flip();
        int k = Math.min(plain.remaining(), dst.remaining());
        int limit = plain.limit();
        plain.limit(plain.position() + k);
        dst.put(plain);
        plain.limit(limit);
        plain.compact();
        int got = dst.position() - start;
        return got == 0 && eof ? -1 : got;
    }

    /** Decrypted bytes wait here for room in the caller's buffer. */
    boolean buffered() {
        return plain.position() > 0;
    }

    /** Encrypts all of {@code src} (read mode) into records for {@link #flush}. */
    void wrap(ByteBuffer src) throws IOException {
        do {
            SSLEngineResult r = engine.wrap(src, netOut);
            switch (r.getStatus()) {
                case BUFFER_OVERFLOW -> netOut = grow(netOut, engine.getSession().getPacketBufferSize());
                case CLOSED -> throw new IOException("TLS: the connection is closed");
                default -> { }
            }
            if (r.getHandshakeStatus() == HandshakeStatus.NEED_TASK) runTasks();
        } while (src.hasRemaining());
    }

    /** Writes the records the socket takes now; true when none is left. */
    boolean flush() throws IOException {
        netOut.flip();
        try {
            ch.write(netOut);
        } finally {
            netOut.compact();
        }
        return netOut.position() == 0;
    }

    /** Records wait to be written (a full socket buffer). */
    boolean pending() {
        return netOut.position() > 0;
    }

    /** Sends close_notify as far as the socket takes it; the caller closes the socket. */
    void close() {
        try {
            engine.closeOutbound();
            wrap(EMPTY);
            flush();
        } catch (IOException | RuntimeException ignored) {
            // closing anyway
        }
    }

    /** Decrypts every whole record read so far; answers what the engine must answer (TLS 1.3 key updates). */
    private void decrypt() throws IOException {
        while (netIn.position() > 0) {
            SSLEngineResult r = unwrap();
            if (r.getHandshakeStatus() == HandshakeStatus.NEED_TASK) runTasks();
            if (engine.getHandshakeStatus() == HandshakeStatus.NEED_WRAP) {
                wrap(EMPTY);
                flush();
            }
            switch (r.getStatus()) {
                case BUFFER_UNDERFLOW -> {
                    return;
                }
                case CLOSED -> {
                    eof = true;
                    return;
                }
                case BUFFER_OVERFLOW -> { }   // plain grew: again
                default -> {
                    if (r.bytesConsumed() == 0 && r.bytesProduced() == 0) return;
                }
            }
        }
    }

    private SSLEngineResult unwrap() throws IOException {
        netIn.flip();
        SSLEngineResult r;
        try {
            r = engine.unwrap(netIn, plain);
        } finally {
            netIn.compact();
        }
        if (r.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
            plain = grow(plain, engine.getSession().getApplicationBufferSize());
        } else if (r.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW && !netIn.hasRemaining()) {
            netIn = grow(netIn, engine.getSession().getPacketBufferSize());
        }
        return r;
    }

    private void runTasks() {
        for (Runnable task; (task = engine.getDelegatedTask()) != null; ) task.run();
    }

    private static ByteBuffer grow(ByteBuffer b, int by) {
        ByteBuffer bigger = ByteBuffer.allocate(b.capacity() + by);
        b.flip();
        bigger.put(b);
        return bigger;
    }
}
