package dev.kensho.pgbench.run;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import javax.net.SocketFactory;

/**
 * pgjdbc's {@code socketFactory} for client connections: sockets backed by a {@link SocketChannel}, so a read
 * waiting for the server's answer is one blocking {@code read}.
 *
 * <p>Why: pgjdbc connects with a timeout, and the JDK's default socket switches itself to non-blocking mode for
 * good the first time a timeout is used; every later wait is then read (EAGAIN), poll, read again. That is three
 * system calls per statement where one does, and on a 2-core machine shared with the server the client's kernel
 * time is taken from the backends. A channel's socket uses non-blocking mode only while a timeout is in force
 * (connect, startup) and goes back to blocking mode after it.
 */
public final class BlockingSocketFactory extends SocketFactory {
    /** pgjdbc instantiates the factory by class name; this constructor is what it calls. */
    public BlockingSocketFactory() {}

    @Override
    public Socket createSocket() throws IOException {
        return SocketChannel.open().socket();
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port), null);
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return connected(new InetSocketAddress(host, port), new InetSocketAddress(localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port), null);
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
        return connected(new InetSocketAddress(address, port), new InetSocketAddress(localAddress, localPort));
    }

    private Socket connected(InetSocketAddress to, InetSocketAddress from) throws IOException {
        Socket s = createSocket();
        try {
            if (from != null) s.bind(from);
            s.connect(to);
            return s;
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }
}
