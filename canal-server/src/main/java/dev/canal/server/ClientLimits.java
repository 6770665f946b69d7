package dev.canal.server;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.TypedProperties;
import java.util.List;
import java.util.Properties;

/**
 * What one client, or one client address, may hold of the client port (docs/security.md). Canal has none of these
 * limits; each default lets the official client work as against Canal.
 *
 * @param maxFrameLength           largest request frame accepted once authenticated; a longer declared length
 *                                 closes the session (client requests are a few hundred bytes, filters aside)
 * @param authTimeoutMillis        {@code canal.client.auth.timeout}: a connection not authenticated this long after
 *                                 it opened gets an error and is closed
 * @param maxAuthFailures          {@code canal.client.auth.max.failures}: wrong logins on one connection before it
 *                                 is closed
 * @param maxConnections           {@code canal.client.max.connections}: client connections open at once
 * @param maxConnectionsPerAddress {@code canal.client.max.connections.per.address}: of those, from one address
 * @param writeBufferBytes         {@code canal.client.write.buffer.size}: unsent reply bytes past which a connection
 *                                 takes no further request until its client has read half of them
 * @param maxPendingOutputBytes    {@code canal.client.max.pending.output}: unsent reply bytes past which the
 *                                 connection is closed rather than given another reply
 * @param maxFilterLength          {@code canal.client.filter.max.length}: longest subscribe filter accepted
 */
public record ClientLimits(int maxFrameLength, int authTimeoutMillis, int maxAuthFailures, int maxConnections,
        int maxConnectionsPerAddress, int writeBufferBytes, long maxPendingOutputBytes, int maxFilterLength) {

    public static final ConfigKey AUTH_TIMEOUT = ConfigKey.ours("canal.client.auth.timeout", "10000",
            "Milliseconds a new client connection may take to authenticate before it gets an error and is closed.").atLeast(1);
    public static final ConfigKey AUTH_MAX_FAILURES = ConfigKey.ours("canal.client.auth.max.failures", "3",
            "Wrong logins one client connection may try before it is closed; answers to an address with recent "
                    + "failures are delayed more with each failure.").atLeast(1);
    public static final ConfigKey MAX_CONNECTIONS = ConfigKey.ours("canal.client.max.connections", "4096",
            "Client connections open at once; one more gets an error and is closed.").atLeast(1);
    public static final ConfigKey MAX_CONNECTIONS_PER_ADDRESS = ConfigKey.ours(
            "canal.client.max.connections.per.address", "256",
            "Client connections open at once from one IP address; one more gets an error and is closed.").atLeast(1);
    public static final ConfigKey WRITE_BUFFER = ConfigKey.ours("canal.client.write.buffer.size", "4194304",
            "Bytes of replies a client connection may leave unread before the server takes no further request of "
                    + "it, until the client has read half of them.").atLeast(1);
    public static final ConfigKey MAX_PENDING_OUTPUT = ConfigKey.ours("canal.client.max.pending.output", "67108864",
            "Bytes of replies a client connection may leave unread before it is closed instead of getting another "
                    + "reply; a reply larger than this alone is still sent.").atLeast(1);
    public static final ConfigKey FILTER_MAX_LENGTH = ConfigKey.ours("canal.client.filter.max.length", "65536",
            "Longest subscribe filter, in characters, a client may send; a longer one is refused.").atLeast(1);

    public static final List<ConfigKey> KEYS = List.of(AUTH_TIMEOUT, AUTH_MAX_FAILURES, MAX_CONNECTIONS,
            MAX_CONNECTIONS_PER_ADDRESS, WRITE_BUFFER, MAX_PENDING_OUTPUT, FILTER_MAX_LENGTH);

    public static final int DEFAULT_MAX_FRAME_LENGTH = 1 << 20;
    /**
     * Largest frame before authentication: the official client's CLIENTAUTHENTICATION is under 200 bytes, so an
     * unauthenticated connection holds little, however many there are.
     */
    public static final int UNAUTHENTICATED_MAX_FRAME_LENGTH = 8 * 1024;
    private static final int MIN_FRAME_LENGTH = 64;

    public ClientLimits {
        if (maxFrameLength < MIN_FRAME_LENGTH) {
            throw new IllegalArgumentException("maxFrameLength must be at least " + MIN_FRAME_LENGTH + " bytes, got "
                    + maxFrameLength);
        }
        AUTH_TIMEOUT.check(Integer.toString(authTimeoutMillis));
        AUTH_MAX_FAILURES.check(Integer.toString(maxAuthFailures));
        MAX_CONNECTIONS.check(Integer.toString(maxConnections));
        MAX_CONNECTIONS_PER_ADDRESS.check(Integer.toString(maxConnectionsPerAddress));
        WRITE_BUFFER.check(Integer.toString(writeBufferBytes));
        MAX_PENDING_OUTPUT.check(Long.toString(maxPendingOutputBytes));
        FILTER_MAX_LENGTH.check(Integer.toString(maxFilterLength));
        if (maxPendingOutputBytes < writeBufferBytes) {
            throw TypedProperties.invalid(MAX_PENDING_OUTPUT.name(), Long.toString(maxPendingOutputBytes),
                    "must not be below " + WRITE_BUFFER.name() + " (" + writeBufferBytes + ")");
        }
    }


    /** Reads {@link #KEYS}; absent or blank keys take their declared defaults. */
    public static ClientLimits fromProperties(Properties properties) {
        TypedProperties p = new TypedProperties(properties);
        return new ClientLimits(DEFAULT_MAX_FRAME_LENGTH, p.integer(AUTH_TIMEOUT), p.integer(AUTH_MAX_FAILURES),
                p.integer(MAX_CONNECTIONS), p.integer(MAX_CONNECTIONS_PER_ADDRESS), p.integer(WRITE_BUFFER),
                p.longValue(MAX_PENDING_OUTPUT), p.integer(FILTER_MAX_LENGTH));
    }

    /** The largest frame accepted before authentication: the smaller of the two limits. */
    public int unauthenticatedMaxFrameLength() {
        return Math.min(UNAUTHENTICATED_MAX_FRAME_LENGTH, maxFrameLength);
    }

    public static ClientLimits defaults() {
        return fromProperties(new Properties());
    }

    public ClientLimits withMaxFrameLength(int bytes) {
        return new ClientLimits(bytes, authTimeoutMillis, maxAuthFailures, maxConnections, maxConnectionsPerAddress,
                writeBufferBytes, maxPendingOutputBytes, maxFilterLength);
    }

    public ClientLimits withAuthTimeoutMillis(int millis) {
        return new ClientLimits(maxFrameLength, millis, maxAuthFailures, maxConnections, maxConnectionsPerAddress,
                writeBufferBytes, maxPendingOutputBytes, maxFilterLength);
    }

    public ClientLimits withMaxAuthFailures(int failures) {
        return new ClientLimits(maxFrameLength, authTimeoutMillis, failures, maxConnections, maxConnectionsPerAddress,
                writeBufferBytes, maxPendingOutputBytes, maxFilterLength);
    }

    public ClientLimits withMaxConnections(int total, int perAddress) {
        return new ClientLimits(maxFrameLength, authTimeoutMillis, maxAuthFailures, total, perAddress,
                writeBufferBytes, maxPendingOutputBytes, maxFilterLength);
    }

    public ClientLimits withOutputLimits(int writeBuffer, long maxPendingOutput) {
        return new ClientLimits(maxFrameLength, authTimeoutMillis, maxAuthFailures, maxConnections,
                maxConnectionsPerAddress, writeBuffer, maxPendingOutput, maxFilterLength);
    }

    public ClientLimits withMaxFilterLength(int characters) {
        return new ClientLimits(maxFrameLength, authTimeoutMillis, maxAuthFailures, maxConnections,
                maxConnectionsPerAddress, writeBufferBytes, maxPendingOutputBytes, characters);
    }
}
