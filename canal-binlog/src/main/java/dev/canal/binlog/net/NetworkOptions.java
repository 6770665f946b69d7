package dev.canal.binlog.net;

import java.time.Duration;
import java.util.Properties;

/**
 * Socket settings of a connection to the source (canal-compat.md 7.2, {@code canal.instance.network.*}).
 *
 * @param receiveBufferSize SO_RCVBUF in bytes ({@code canal.instance.network.receiveBufferSize}, default 16384)
 * @param sendBufferSize SO_SNDBUF in bytes ({@code canal.instance.network.sendBufferSize}, default 16384)
 * @param soTimeout read timeout ({@code canal.instance.network.soTimeout}, seconds, default 30); must exceed the
 *     heartbeat period, or an idle binlog stream times out
 * @param connectTimeout TCP connect timeout (not a Canal key; default 10 s)
 */
public record NetworkOptions(int receiveBufferSize, int sendBufferSize, Duration soTimeout, Duration connectTimeout) {

    public static final String RECEIVE_BUFFER_SIZE_KEY = "canal.instance.network.receiveBufferSize";
    public static final String SEND_BUFFER_SIZE_KEY = "canal.instance.network.sendBufferSize";
    public static final String SO_TIMEOUT_KEY = "canal.instance.network.soTimeout";

    private static final int DEFAULT_BUFFER_SIZE = 16 * 1024;
    private static final Duration DEFAULT_SO_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);

    public NetworkOptions {
        if (receiveBufferSize <= 0) {
            throw new IllegalArgumentException(RECEIVE_BUFFER_SIZE_KEY + " must be positive, got " + receiveBufferSize);
        }
        if (sendBufferSize <= 0) {
            throw new IllegalArgumentException(SEND_BUFFER_SIZE_KEY + " must be positive, got " + sendBufferSize);
        }
        if (soTimeout.isNegative() || connectTimeout.isNegative()) {
            throw new IllegalArgumentException("timeouts must not be negative: soTimeout " + soTimeout
                    + ", connectTimeout " + connectTimeout);
        }
    }

    public static NetworkOptions defaults() {
        return new NetworkOptions(DEFAULT_BUFFER_SIZE, DEFAULT_BUFFER_SIZE, DEFAULT_SO_TIMEOUT, DEFAULT_CONNECT_TIMEOUT);
    }

    /** Reads the {@code canal.instance.network.*} keys; absent or blank keys take Canal's defaults. */
    public static NetworkOptions fromProperties(Properties properties) {
        return new NetworkOptions(
                intKey(properties, RECEIVE_BUFFER_SIZE_KEY, DEFAULT_BUFFER_SIZE),
                intKey(properties, SEND_BUFFER_SIZE_KEY, DEFAULT_BUFFER_SIZE),
                Duration.ofSeconds(intKey(properties, SO_TIMEOUT_KEY, (int) DEFAULT_SO_TIMEOUT.toSeconds())),
                DEFAULT_CONNECT_TIMEOUT);
    }

    public NetworkOptions withSoTimeout(Duration timeout) {
        return new NetworkOptions(receiveBufferSize, sendBufferSize, timeout, connectTimeout);
    }

    private static int intKey(Properties properties, String key, int fallback) {
        String value = properties.getProperty(key);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be an integer, got '" + value + "'", e);
        }
    }
}
