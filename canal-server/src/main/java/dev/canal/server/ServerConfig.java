package dev.canal.server;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.ConfigValueException;
import dev.canal.protocol.config.TypedProperties;
import dev.canal.server.netty.Credentials;
import java.util.List;
import java.util.Properties;

/**
 * The client port's settings from {@code canal.properties} (docs/configuration.md).
 *
 * @param ip             {@code canal.ip}: the address to listen on; empty listens on every interface
 * @param port           {@code canal.port}, default 11111
 * @param user           {@code canal.user}; empty lets any client in
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

    public static final ConfigKey IP = ConfigKey.canal("canal.ip", "",
            "Address the client port listens on; empty listens on every interface.");
    public static final ConfigKey PORT = ConfigKey.canal("canal.port", "11111", "The client port.").between(0, 65535);
    public static final ConfigKey USER = ConfigKey.canal("canal.user", "",
            "User a client must authenticate as; empty lets every client in.");
    public static final ConfigKey PASSWD = ConfigKey.canal("canal.passwd", "",
            "That user's password as 40 hex digits of SHA1(SHA1(password)), as MySQL's PASSWORD() gives it "
                    + "without the leading *; required when canal.user is set.");
    public static final ConfigKey AUTH_TIMEOUT = ConfigKey.ours("canal.client.auth.timeout", "10000",
            "Milliseconds a new client connection may take to authenticate before it gets an error and is closed.")
            .atLeast(1);
    public static final ConfigKey MAX_CONNECTIONS = ConfigKey.ours("canal.client.max.connections", "4096",
            "Client connections open at once; one more gets an error and is closed.").atLeast(1);

    public static final List<ConfigKey> KEYS = List.of(IP, PORT, USER, PASSWD, AUTH_TIMEOUT, MAX_CONNECTIONS);

    public static final int DEFAULT_MAX_FRAME_LENGTH = 1 << 20;

    public ServerConfig {
        ip = blankToEmpty(ip);
        user = blankToEmpty(user);
        passwordHash = blankToEmpty(passwordHash);
        PORT.check(Integer.toString(port));
        if (!user.isEmpty() && passwordHash.isEmpty()) {
            // as Canal 1.1.8 does: a user without a password would let anyone in (docs/security.md)
            throw ConfigValueException.missing(PASSWD.name(), USER.name() + " is set, and an empty " + PASSWD.name()
                    + " would let anyone in; set it to the hex SHA1(SHA1(password))");
        }
        if (!passwordHash.isEmpty() && !Credentials.isSha1Hex(passwordHash)) {
            throw ConfigValueException.secret(PASSWD.name(), "must be 40 hex digits (hex of SHA1(SHA1(password)))");
        }
        if (maxFrameLength < 64) {
            throw new IllegalArgumentException("maxFrameLength must be at least 64 bytes, got " + maxFrameLength);
        }
        AUTH_TIMEOUT.check(Integer.toString(authTimeoutMillis));
        MAX_CONNECTIONS.check(Integer.toString(maxConnections));
    }

    /** Listens on every interface at the given port (0 picks a free one), without authentication. */
    public static ServerConfig open(int port) {
        return fromProperties(new Properties()).withPort(port);
    }

    /** Reads {@link #KEYS}; absent or blank keys take their declared defaults. */
    public static ServerConfig fromProperties(Properties properties) {
        TypedProperties p = new TypedProperties(properties);
        return new ServerConfig(p.string(IP), p.integer(PORT), p.string(USER), p.string(PASSWD),
                DEFAULT_MAX_FRAME_LENGTH, p.integer(AUTH_TIMEOUT), p.integer(MAX_CONNECTIONS));
    }

    public ServerConfig withPort(int newPort) {
        return new ServerConfig(ip, newPort, user, passwordHash, maxFrameLength, authTimeoutMillis, maxConnections);
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

    private static String blankToEmpty(String value) {
        return value == null ? "" : value.trim();
    }
}
