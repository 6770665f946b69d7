package dev.canal.binlog.net;

import java.time.Duration;

/**
 * Socket settings of a connection to the source.
 *
 * @param receiveBufferSize SO_RCVBUF in bytes (default 16384)
 * @param sendBufferSize SO_SNDBUF in bytes (default 16384)
 * @param soTimeout read timeout (default 30 s); must exceed the heartbeat period, or an idle binlog stream times out
 * @param connectTimeout TCP connect timeout (default 10 s)
 */
public record NetworkOptions(int receiveBufferSize, int sendBufferSize, Duration soTimeout, Duration connectTimeout) {

    private static final int DEFAULT_BUFFER_SIZE = 16 * 1024;
    private static final Duration DEFAULT_SO_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);

    public NetworkOptions {
        if (receiveBufferSize <= 0) {
            throw new IllegalArgumentException("receiveBufferSize must be positive, got " + receiveBufferSize);
        }
        if (sendBufferSize <= 0) {
            throw new IllegalArgumentException("sendBufferSize must be positive, got " + sendBufferSize);
        }
        if (soTimeout.isNegative() || connectTimeout.isNegative()) {
            throw new IllegalArgumentException("timeouts must not be negative: soTimeout " + soTimeout
                    + ", connectTimeout " + connectTimeout);
        }
    }

    public static NetworkOptions defaults() {
        return new NetworkOptions(DEFAULT_BUFFER_SIZE, DEFAULT_BUFFER_SIZE, DEFAULT_SO_TIMEOUT, DEFAULT_CONNECT_TIMEOUT);
    }

    public NetworkOptions withSoTimeout(Duration timeout) {
        return new NetworkOptions(receiveBufferSize, sendBufferSize, timeout, connectTimeout);
    }
}
