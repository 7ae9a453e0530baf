package dev.kensho.core.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketImpl;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.Properties;
import javax.net.SocketFactory;

/**
 * pgjdbc's {@code socketFactory} for a server's Unix-domain socket, the way libpq reaches a local server when the
 * host is a directory ({@code -h /var/run/postgresql}): {@code socketFactoryArg} is the socket file,
 * {@code DIR/.s.PGSQL.PORT}. pgjdbc has no Unix sockets of its own; Java 16+ has them as {@link SocketChannel}s,
 * which have no {@link Socket} adaptor, so {@link UnixSocket} is that adaptor, with just what pgjdbc uses.
 * The host and port pgjdbc passes to {@code connect} are ignored: the socket file says where the server is.
 */
public final class UnixSocketFactory extends SocketFactory {
    private final Path socketFile;

    /** pgjdbc's preferred constructor: the connection's properties, with the socket file as socketFactoryArg. */
    public UnixSocketFactory(Properties info) {
        String arg = info.getProperty("socketFactoryArg");
        if (arg == null || arg.isEmpty()) {
            throw new IllegalArgumentException(UnixSocketFactory.class.getName() + " needs socketFactoryArg=<socket file>");
        }
        this.socketFile = Path.of(arg);
    }

    @Override
    public Socket createSocket() throws IOException {
        return new UnixSocket(socketFile);
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return connected();
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return connected();
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected();
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
        return connected();
    }

    /**
     * A blocking channel connected to a server's socket file; a failure says so in libpq's words, which users search
     * for. A local connect succeeds or fails at once (no handshake to wait for), so it needs no timeout.
     */
    public static SocketChannel open(Path socketFile) throws IOException {
        SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            c.connect(UnixDomainSocketAddress.of(socketFile));
            return c;
        } catch (IOException e) {
            c.close();
            throw new java.net.ConnectException("connection to server on socket \"" + socketFile + "\" failed: "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        }
    }

    private Socket connected() throws IOException {
        UnixSocket s = new UnixSocket(socketFile);
        s.connect(null, 0);
        return s;
    }

    /**
     * A {@link Socket} over a Unix-domain {@link SocketChannel}. Reads block in the kernel (one read per wait)
     * while no timeout is set, which is how a benchmark client runs; with a timeout (pgjdbc's socketTimeout,
     * its 1 ms peek for notifications) a read waits in a {@link Selector} and throws
     * {@link SocketTimeoutException} as a TCP socket does.
     */
    static final class UnixSocket extends Socket {
        private final Path file;
        private SocketChannel ch;
        private Selector selector;
        private volatile int timeoutMillis;
        private boolean tcpNoDelay = true;
        private boolean keepAlive;
        private boolean closed;
        private InputStream in;
        private OutputStream out;

        UnixSocket(Path file) throws SocketException {
            super((SocketImpl) null);
            this.file = file;
        }

        /** Connects to the socket file, whatever the address (pgjdbc passes the URL's host and port). */
        @Override
        public synchronized void connect(SocketAddress ignored, int timeout) throws IOException {
            if (closed) throw new SocketException("Socket is closed");
            if (ch != null) throw new SocketException("already connected");
            ch = UnixSocketFactory.open(file);
            in = new ChannelIn();
            out = new ChannelOut();
        }

        @Override
        public void connect(SocketAddress endpoint) throws IOException {
            connect(endpoint, 0);
        }

        @Override
        public void bind(SocketAddress bindpoint) throws IOException {
            throw new SocketException("a Unix-domain client socket is not bound to a local address");
        }

        @Override public synchronized boolean isConnected() { return ch != null; }
        @Override public synchronized boolean isBound() { return ch != null; }
        @Override public synchronized boolean isClosed() { return closed; }

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            open();
            return in;
        }

        @Override
        public synchronized OutputStream getOutputStream() throws IOException {
            open();
            return out;
        }

        private void open() throws SocketException {
            if (closed) throw new SocketException("Socket is closed");
            if (ch == null) throw new SocketException("Socket is not connected");
        }

        @Override
        public synchronized void close() throws IOException {
            if (closed) return;
            closed = true;
            try {
                if (selector != null) selector.close();
            } finally {
                if (ch != null) ch.close();
            }
        }

        @Override public void shutdownInput() throws IOException { open(); ch.shutdownInput(); }
        @Override public void shutdownOutput() throws IOException { open(); ch.shutdownOutput(); }

        // TCP options mean nothing on a Unix socket; kept so pgjdbc reads back what it set
        @Override public void setTcpNoDelay(boolean on) { tcpNoDelay = on; }
        @Override public boolean getTcpNoDelay() { return tcpNoDelay; }
        @Override public void setKeepAlive(boolean on) { keepAlive = on; }
        @Override public boolean getKeepAlive() { return keepAlive; }

        @Override
        public void setSoTimeout(int timeout) throws SocketException {
            if (timeout < 0) throw new IllegalArgumentException("timeout < 0");
            timeoutMillis = timeout;
        }

        @Override public int getSoTimeout() { return timeoutMillis; }

        @Override
        public void setReceiveBufferSize(int size) throws SocketException {
            option(StandardSocketOptions.SO_RCVBUF, size);
        }

        @Override
        public int getReceiveBufferSize() throws SocketException {
            return option(StandardSocketOptions.SO_RCVBUF);
        }

        @Override
        public void setSendBufferSize(int size) throws SocketException {
            option(StandardSocketOptions.SO_SNDBUF, size);
        }

        @Override
        public int getSendBufferSize() throws SocketException {
            return option(StandardSocketOptions.SO_SNDBUF);
        }

        private void option(java.net.SocketOption<Integer> o, int v) throws SocketException {
            try {
                open();
                ch.setOption(o, v);
            } catch (SocketException e) {
                throw e;
            } catch (IOException e) {
                throw new SocketException(e.getMessage());
            }
        }

        private int option(java.net.SocketOption<Integer> o) throws SocketException {
            try {
                open();
                return ch.getOption(o);
            } catch (SocketException e) {
                throw e;
            } catch (IOException e) {
                throw new SocketException(e.getMessage());
            }
        }

        // no internet address at either end
        @Override public InetAddress getInetAddress() { return null; }
        @Override public InetAddress getLocalAddress() { return InetAddress.getLoopbackAddress(); }
        @Override public int getPort() { return 0; }
        @Override public int getLocalPort() { return -1; }
        @Override public SocketAddress getRemoteSocketAddress() { return ch == null ? null : UnixDomainSocketAddress.of(file); }
        @Override public SocketAddress getLocalSocketAddress() { return null; }
        @Override public SocketChannel getChannel() { return null; }

        @Override
        public String toString() {
            return "UnixSocket[" + file + (closed ? ", closed" : ch == null ? ", unconnected" : "") + "]";
        }

        /** A read with a timeout: the channel turns non-blocking just for it and waits in a selector. */
        private int readWithin(ByteBuffer b, int millis) throws IOException {
            synchronized (ch.blockingLock()) {
                ch.configureBlocking(false);
                try {
                    int n = ch.read(b);
                    if (n != 0) return n;
                    if (selector == null) selector = Selector.open();
                    SelectionKey key = ch.register(selector, SelectionKey.OP_READ);
                    try {
                        long deadline = System.nanoTime() + millis * 1_000_000L;
                        while (true) {
                            long left = (deadline - System.nanoTime()) / 1_000_000L;
                            if (left <= 0) throw new SocketTimeoutException("Read timed out");
                            selector.select(left);
                            selector.selectedKeys().clear();
                            n = ch.read(b);
                            if (n != 0) return n;
                        }
                    } finally {
                        key.cancel();
                        selector.selectNow();   // deregisters the cancelled key, so blocking mode may come back
                    }
                } finally {
                    ch.configureBlocking(true);
                }
            }
        }

        private final class ChannelIn extends InputStream {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                int n = read(one, 0, 1);
                return n < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (len == 0) return 0;
                ByteBuffer buf = ByteBuffer.wrap(b, off, len);
                int t = timeoutMillis;
                return t == 0 ? ch.read(buf) : readWithin(buf, t);
            }

            @Override
            public int available() throws IOException {
                return 0;
            }

            @Override
            public void close() throws IOException {
                UnixSocket.this.close();
            }
        }

        private final class ChannelOut extends OutputStream {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                ByteBuffer buf = ByteBuffer.wrap(b, off, len);
                synchronized (ch.blockingLock()) {   // not while a timed read has the channel non-blocking
                    while (buf.hasRemaining()) ch.write(buf);
                }
            }

            @Override
            public void close() throws IOException {
                UnixSocket.this.close();
            }
        }
    }
}
