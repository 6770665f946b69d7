package dev.canal.server.netty;

import io.netty.channel.socket.SocketChannel;
import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts a port's open connections, in all and per client address, against its caps (for the client port
 * {@code canal.client.max.connections} and {@code canal.client.max.connections.per.address}). Refusals are logged
 * once per burst rather than once per connection, at most one warning every {@value #WARNING_INTERVAL_SECONDS} s
 * with the count since the last.
 */
public final class ConnectionLimit {

    private static final Logger log = LoggerFactory.getLogger(ConnectionLimit.class);
    static final long WARNING_INTERVAL_SECONDS = 10;

    private final String port;
    private final int max;
    private final String maxKey;
    private final int maxPerAddress;
    private final String maxPerAddressKey;
    private final AtomicInteger open = new AtomicInteger();
    private final ConcurrentMap<InetAddress, Integer> openByAddress = new ConcurrentHashMap<>();
    private final WarningRate refusals = new WarningRate(WARNING_INTERVAL_SECONDS, TimeUnit.SECONDS);

    /**
     * @param port   what the limit guards, for messages ("client", "admin")
     * @param maxKey what sets {@code max} (its key), named in refusals; likewise {@code maxPerAddressKey}
     */
    public ConnectionLimit(String port, int max, String maxKey, int maxPerAddress, String maxPerAddressKey) {
        this.port = port;
        this.max = max;
        this.maxKey = maxKey;
        this.maxPerAddress = maxPerAddress;
        this.maxPerAddressKey = maxPerAddressKey;
    }

    /**
     * Takes a place for a new connection from {@code address}.
     *
     * @return null when admitted, else the refusal to send the client (the refusal is counted for the log)
     */
    String tryAcquire(InetAddress address) {
        while (true) {
            int current = open.get();
            if (current >= max) {
                return refused("too many " + port + " connections: this server accepts at most " + max + " ("
                        + maxKey + ")", "already " + max + " open, the limit of " + maxKey);
            }
            if (open.compareAndSet(current, current + 1)) {
                break;
            }
        }
        boolean[] admitted = {false};
        openByAddress.compute(address, (key, count) -> {
            int now = count == null ? 0 : count;
            if (now >= maxPerAddress) {
                return count;
            }
            admitted[0] = true;
            return now + 1;
        });
        if (!admitted[0]) {
            open.decrementAndGet();
            return refused("too many " + port + " connections from " + address.getHostAddress()
                    + ": this server accepts at most " + maxPerAddress + " per address (" + maxPerAddressKey + ")",
                    "already " + maxPerAddress + " open from " + address.getHostAddress() + ", the limit of "
                            + maxPerAddressKey);
        }
        return null;
    }

    /** Caps that no key sets (the admin port's, the metrics endpoint's), named in refusals as fixed. */
    public static ConnectionLimit fixed(String port, int max, int maxPerAddress) {
        String fixed = "the " + port + " port's fixed limit";
        return new ConnectionLimit(port, max, fixed, maxPerAddress, fixed);
    }

    /**
     * Takes a place for a new connection, given back when it closes.
     *
     * @return null when admitted, else the refusal to send the client
     */
    public String admit(SocketChannel channel) {
        InetAddress client = channel.remoteAddress().getAddress();
        String refusal = tryAcquire(client);
        if (refusal == null) {
            channel.closeFuture().addListener(closed -> release(client));
        }
        return refusal;
    }

    /** Gives back the place of a connection that {@link #tryAcquire} let in, once it has closed. */
    void release(InetAddress address) {
        openByAddress.computeIfPresent(address, (key, count) -> count <= 1 ? null : count - 1);
        open.decrementAndGet();
    }

    private String refused(String reply, String why) {
        int count = refusals.occurred();
        if (count > 0) {
            log.warn("refused {} {} connection(s): {}", count, port, why);
        }
        return reply;
    }
}
