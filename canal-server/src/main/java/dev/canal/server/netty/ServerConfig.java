package dev.canal.server.netty;

import java.util.Objects;
import java.util.Properties;

/**
 * The TCP server's settings from {@code canal.properties} (canal-compat.md 2, 7.2).
 *
 * @param ip             {@code canal.ip}: the address to listen on; empty listens on every interface
 * @param port           {@code canal.port}, default 11111
 * @param user           {@code canal.user}; empty lets any client in (canal-compat.md 2.4)
 * @param passwordHash   {@code canal.passwd}: hex of SHA1(SHA1(password)), 40 hex digits, or empty
 * @param maxFrameLength largest request frame accepted; a longer declared length closes the session
 *                       (Canal enforces none; client requests are a few hundred bytes)
 * @param authTimeoutMillis {@code canal.client.auth.timeout} (ours, Canal has none): a connection not authenticated
 *                       this long after it opened gets an error and is closed, so silent sockets hold nothing for long
 * @param maxConnections {@code canal.client.max.connections} (ours, Canal has none): client connections open at
 *                       once; one more gets an error and is closed
 */
public record ServerConfig(String ip, int port, String user, String passwordHash, int maxFrameLength,
        int authTimeoutMillis, int maxConnections) {

    public static final String IP_KEY = "canal.ip";
    public static final String PORT_KEY = "canal.port";
    public static final String USER_KEY = "canal.user";
    public static final String PASSWD_KEY = "canal.passwd";
    public static final String AUTH_TIMEOUT_KEY = "canal.client.auth.timeout";
    public static final String MAX_CONNECTIONS_KEY = "canal.client.max.connections";

    public static final int DEFAULT_PORT = 11111;
    public static final int DEFAULT_MAX_FRAME_LENGTH = 1 << 20;
    /** Ample for the official client, which authenticates right after reading the handshake. */
    public static final int DEFAULT_AUTH_TIMEOUT_MILLIS = 10_000;
    /** Far above any real deployment's clients, low enough that idle sockets cannot exhaust memory or descriptors. */
    public static final int DEFAULT_MAX_CONNECTIONS = 4096;

    public ServerConfig {
        ip = blankToEmpty(ip);
        user = blankToEmpty(user);
        passwordHash = blankToEmpty(passwordHash);
        if (port < 0 || port > 0xFFFF) {
            throw new IllegalArgumentException(PORT_KEY + " must be 0..65535, got " + port);
        }
        if (!user.isEmpty() && passwordHash.isEmpty()) {
            // Canal 1.1.8 refuses this start-up since issue 4941: a user without a password let anyone in
            throw new IllegalArgumentException(USER_KEY + " is set but " + PASSWD_KEY
                    + " is empty; set canal.passwd to the hex SHA1(SHA1(password)) (Canal issue 4941)");
        }
        if (!passwordHash.isEmpty() && !Credentials.isSha1Hex(passwordHash)) {
            throw new IllegalArgumentException(PASSWD_KEY + " must be 40 hex digits (hex of SHA1(SHA1(password)))");
        }
        if (maxFrameLength < 64) {
            throw new IllegalArgumentException("maxFrameLength must be at least 64 bytes, got " + maxFrameLength);
        }
        if (authTimeoutMillis <= 0) {
            throw new IllegalArgumentException(AUTH_TIMEOUT_KEY + " must be a positive number of milliseconds, got "
                    + authTimeoutMillis);
        }
        if (maxConnections <= 0) {
            throw new IllegalArgumentException(MAX_CONNECTIONS_KEY + " must be positive, got " + maxConnections);
        }
    }

    /** Listens on every interface at the given port (0 picks a free one), without authentication. */
    public static ServerConfig open(int port) {
        return new ServerConfig("", port, "", "", DEFAULT_MAX_FRAME_LENGTH, DEFAULT_AUTH_TIMEOUT_MILLIS,
                DEFAULT_MAX_CONNECTIONS);
    }

    /**
     * Reads {@code canal.ip}, {@code canal.port}, {@code canal.user}, {@code canal.passwd},
     * {@code canal.client.auth.timeout} and {@code canal.client.max.connections}.
     */
    public static ServerConfig fromProperties(Properties properties) {
        Objects.requireNonNull(properties, "properties");
        return new ServerConfig(properties.getProperty(IP_KEY), integer(properties, PORT_KEY, DEFAULT_PORT),
                properties.getProperty(USER_KEY), properties.getProperty(PASSWD_KEY), DEFAULT_MAX_FRAME_LENGTH,
                integer(properties, AUTH_TIMEOUT_KEY, DEFAULT_AUTH_TIMEOUT_MILLIS),
                integer(properties, MAX_CONNECTIONS_KEY, DEFAULT_MAX_CONNECTIONS));
    }

    public ServerConfig withCredentials(String newUser, String newPasswordHash) {
        return new ServerConfig(ip, port, newUser, newPasswordHash, maxFrameLength, authTimeoutMillis, maxConnections);
    }

    public ServerConfig withMaxFrameLength(int newMaxFrameLength) {
        return new ServerConfig(ip, port, user, passwordHash, newMaxFrameLength, authTimeoutMillis, maxConnections);
    }

    public ServerConfig withAuthTimeoutMillis(int newAuthTimeoutMillis) {
        return new ServerConfig(ip, port, user, passwordHash, maxFrameLength, newAuthTimeoutMillis, maxConnections);
    }

    public ServerConfig withMaxConnections(int newMaxConnections) {
        return new ServerConfig(ip, port, user, passwordHash, maxFrameLength, authTimeoutMillis, newMaxConnections);
    }

    /** Who may log in on the client port. */
    public Credentials credentials() {
        return new Credentials(user, passwordHash);
    }

    @Override
    public String toString() {
        // never print the password hash
        return "ServerConfig[ip=" + ip + ", port=" + port + ", user=" + user + ", passwd="
                + (passwordHash.isEmpty() ? "" : "***") + ", maxFrameLength=" + maxFrameLength
                + ", authTimeoutMillis=" + authTimeoutMillis + ", maxConnections=" + maxConnections + "]";
    }

    private static int integer(Properties properties, String key, int defaultValue) {
        String text = blankToEmpty(properties.getProperty(key));
        try {
            return text.isEmpty() ? defaultValue : Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " is not a number: '" + text + "'", e);
        }
    }

    private static String blankToEmpty(String value) {
        return value == null ? "" : value.trim();
    }
}
