package dev.canal.binlog.net;

import java.time.Duration;

/**
 * Socket settings of a connection to the source.
 *
 * @param receiveBufferSize SO_RCVBUF in bytes (default 16384)
 * @param sendBufferSize SO_SNDBUF in bytes (default 16384)
 * @param soTimeout read timeout (default 30 s); must exceed the heartbeat period, or an idle binlog stream times out
 * @param connectTimeout TCP connect timeout (default 10 s)
 * @param maxPacketSize the largest packet or binlog event accepted from the server, in bytes (default 1 GiB, the
 *     largest {@code max_allowed_packet} a server may have); a server claiming more is refused before anything of that
 *     size is allocated, and what is allocated grows only with the bytes that arrive
 */
public record NetworkOptions(int receiveBufferSize, int sendBufferSize, Duration soTimeout, Duration connectTimeout,
        int maxPacketSize) {

    private static final int DEFAULT_BUFFER_SIZE = 16 * 1024;
    private static final Duration DEFAULT_SO_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    public static final int DEFAULT_MAX_PACKET_SIZE = 1 << 30;
    /** A handshake, a login and a query result row fit in this; a binlog event header too. */
    private static final int MIN_MAX_PACKET_SIZE = 1024;

    public NetworkOptions {
        if (receiveBufferSize <= 0) {
            throw new IllegalArgumentException("receiveBufferSize must be positive, got " + receiveBufferSize);
        }
        if (sendBufferSize <= 0) {
            throw new IllegalArgumentException("sendBufferSize must be positive, got " + sendBufferSize);
        }
        if (maxPacketSize < MIN_MAX_PACKET_SIZE) {
            throw new IllegalArgumentException("maxPacketSize must be at least " + MIN_MAX_PACKET_SIZE + ", got "
                    + maxPacketSize);
        }
        if (soTimeout.isNegative() || connectTimeout.isNegative()) {
            throw new IllegalArgumentException("timeouts must not be negative: soTimeout " + soTimeout
                    + ", connectTimeout " + connectTimeout);
        }
    }

    public static NetworkOptions defaults() {
        return new NetworkOptions(DEFAULT_BUFFER_SIZE, DEFAULT_BUFFER_SIZE, DEFAULT_SO_TIMEOUT, DEFAULT_CONNECT_TIMEOUT,
                DEFAULT_MAX_PACKET_SIZE);
    }

    public NetworkOptions withSoTimeout(Duration timeout) {
        return new NetworkOptions(receiveBufferSize, sendBufferSize, timeout, connectTimeout, maxPacketSize);
    }

    public NetworkOptions withMaxPacketSize(int bytes) {
        return new NetworkOptions(receiveBufferSize, sendBufferSize, soTimeout, connectTimeout, bytes);
    }
}
