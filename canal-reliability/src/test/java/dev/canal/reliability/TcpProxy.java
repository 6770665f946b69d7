package dev.canal.reliability;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP proxy between two of our components (here the daemon and its source database) that a test controls:
 * it forwards bytes both ways; on command it drops every open connection and refuses new ones (each is
 * accepted and reset at once, so the attempts can be counted) until told to accept again, or it silently
 * swallows the bytes of the open connections. An orderly close by either end is passed on as one (a half-close
 * of the other side), so the bytes still in flight arrive: a reset there would destroy them in the receiver's
 * buffer, which the database's own close after a non-blocking binlog dump would turn into a fault no real network
 * makes. Blocking {@code java.nio} channels, two pump threads per connection.
 */
final class TcpProxy implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TcpProxy.class);

    private final InetSocketAddress target;
    private final ServerSocketChannel listener;
    private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();
    private final Set<SocketChannel> blackholed = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean refusing = new AtomicBoolean();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private final Thread acceptor;

    TcpProxy(String targetHost, int targetPort) throws IOException {
        this.target = new InetSocketAddress(targetHost, targetPort);
        this.listener = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        this.acceptor = new Thread(this::acceptUntilClosed, "tcp-proxy-" + port());
        this.acceptor.setDaemon(true);
        this.acceptor.start();
    }

    int port() {
        try {
            return ((InetSocketAddress) listener.getLocalAddress()).getPort();
        } catch (IOException e) {
            throw new IllegalStateException("proxy listener has no address", e);
        }
    }

    /** Drops every forwarded connection now and refuses new ones until {@link #acceptAgain()}. */
    void cutAndRefuse() {
        refusing.set(true);
        log.info("proxy to {}: cutting {} channels, refusing", target, open.size());
        open.forEach(TcpProxy::reset);
    }

    /**
     * From now on the connections open at this moment lose every byte, both ways, without being closed: a
     * half-open path (a dead peer behind a firewall) that only a read timeout can notice. New connections are
     * forwarded as usual.
     */
    void blackholeOpenConnections() {
        blackholed.addAll(open);
        log.info("proxy to {}: {} channels now swallow every byte", target, open.size());
    }

    void acceptAgain() {
        refusing.set(false);
        log.info("proxy to {}: accepting again after refusing {} connections", target, refused.get());
    }

    /** Connections forwarded so far. */
    int accepted() {
        return accepted.get();
    }

    /** Connection attempts refused so far. */
    int refused() {
        return refused.get();
    }

    private void acceptUntilClosed() {
        while (listener.isOpen()) {
            try {
                SocketChannel client = listener.accept();
                if (refusing.get()) {
                    refused.incrementAndGet();
                    reset(client);
                    continue;
                }
                SocketChannel server = SocketChannel.open(target);
                accepted.incrementAndGet();
                open.add(client);
                open.add(server);
                AtomicInteger directionsOpen = new AtomicInteger(2);
                pump(client, server, "up", directionsOpen);
                pump(server, client, "down", directionsOpen);
            } catch (ClosedChannelException e) {
                return; // the proxy was closed
            } catch (IOException e) {
                log.warn("proxy to {}: cannot forward a new connection: {}", target, e.toString());
            }
        }
    }

    private void pump(SocketChannel from, SocketChannel to, String direction, AtomicInteger directionsOpen) {
        Thread thread = new Thread(() -> {
            ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
            boolean orderly = false;
            try {
                while (from.read(buffer) >= 0) {
                    buffer.flip();
                    while (buffer.hasRemaining() && !blackholed.contains(from)) {
                        to.write(buffer);
                    }
                    buffer.clear();
                }
                to.shutdownOutput(); // the sender closed in order: so does this hop, after what it forwarded
                orderly = true;
            } catch (IOException e) {
                log.debug("proxy {} pump ended: {}", direction, e.toString());
            } finally {
                if (!orderly || directionsOpen.decrementAndGet() == 0) {
                    forget(from, to, orderly);
                }
            }
        }, "tcp-proxy-" + direction);
        thread.setDaemon(true);
        thread.start();
    }

    /** Ends a forwarded connection: closed normally when both ends closed in order, else reset. */
    private void forget(SocketChannel from, SocketChannel to, boolean orderly) {
        for (SocketChannel channel : new SocketChannel[] {from, to}) {
            if (orderly) {
                closeQuietly(channel);
            } else {
                reset(channel);
            }
            open.remove(channel);
            blackholed.remove(channel);
        }
    }

    private static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            log.debug("closing a proxied channel failed: {}", e.toString());
        }
    }

    /** Closes with an RST (linger 0), as a network fault or a killed peer looks to the other end. */
    private static void reset(SocketChannel channel) {
        try {
            if (channel.isOpen()) {
                channel.setOption(StandardSocketOptions.SO_LINGER, 0);
            }
            channel.close();
        } catch (IOException e) {
            log.debug("closing a proxied channel failed: {}", e.toString());
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        open.forEach(TcpProxy::reset);
    }
}
