package dev.canal.server;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.ConfigValueException;
import dev.canal.protocol.config.TypedProperties;
import dev.canal.server.netty.Credentials;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The client port's settings from {@code canal.properties} (docs/configuration.md).
 *
 * @param ip           {@code canal.ip}: the address to listen on; empty listens on every interface
 * @param port         {@code canal.port}, default 11111
 * @param user         {@code canal.user}; empty lets any client in
 * @param passwordHash {@code canal.passwd}: hex of SHA1(SHA1(password)), 40 hex digits, or empty
 * @param limits       what one client or address may hold (ours; Canal has none)
 */
public record ServerConfig(String ip, int port, String user, String passwordHash, ClientLimits limits) {

    public static final ConfigKey IP = ConfigKey.canal("canal.ip", "",
            "Address the client port listens on; empty listens on every interface.");
    public static final ConfigKey PORT = ConfigKey.canal("canal.port", "11111", "The client port.").between(0, 65535);
    public static final ConfigKey USER = ConfigKey.canal("canal.user", "",
            "User a client must authenticate as; empty lets every client in.");
    public static final ConfigKey PASSWD = ConfigKey.canal("canal.passwd", "",
            "That user's password as 40 hex digits of SHA1(SHA1(password)), as MySQL's PASSWORD() gives it "
                    + "without the leading *; required when canal.user is set.");
    public static final ConfigKey AUTH_TIMEOUT = ClientLimits.AUTH_TIMEOUT;
    public static final ConfigKey MAX_CONNECTIONS = ClientLimits.MAX_CONNECTIONS;

    public static final List<ConfigKey> KEYS = Stream.concat(Stream.of(IP, PORT, USER, PASSWD),
            ClientLimits.KEYS.stream()).toList();

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
        if (limits == null) {
            throw new IllegalArgumentException("limits must be given");
        }
    }

    /** Listens on every interface at the given port (0 picks a free one), without authentication. */
    public static ServerConfig open(int port) {
        return fromProperties(new Properties()).withPort(port);
    }

    /** Reads {@link #KEYS}; absent or blank keys take their declared defaults. */
    public static ServerConfig fromProperties(Properties properties) {
        TypedProperties p = new TypedProperties(properties);
        return new ServerConfig(p.string(IP), p.integer(PORT), p.string(USER), p.string(PASSWD),
                ClientLimits.fromProperties(properties));
    }

    public ServerConfig withPort(int newPort) {
        return new ServerConfig(ip, newPort, user, passwordHash, limits);
    }

    public ServerConfig withCredentials(String newUser, String newPasswordHash) {
        return new ServerConfig(ip, port, newUser, newPasswordHash, limits);
    }

    public ServerConfig withLimits(ClientLimits newLimits) {
        return new ServerConfig(ip, port, user, passwordHash, newLimits);
    }

    public ServerConfig withMaxFrameLength(int newMaxFrameLength) {
        return withLimits(limits.withMaxFrameLength(newMaxFrameLength));
    }

    public ServerConfig withAuthTimeoutMillis(int newAuthTimeoutMillis) {
        return withLimits(limits.withAuthTimeoutMillis(newAuthTimeoutMillis));
    }

    public ServerConfig withMaxConnections(int newMaxConnections) {
        return withLimits(limits.withMaxConnections(newMaxConnections, limits.maxConnectionsPerAddress()));
    }

    public int authTimeoutMillis() {
        return limits.authTimeoutMillis();
    }

    public int maxConnections() {
        return limits.maxConnections();
    }

    /** Who may log in on the client port. */
    public Credentials credentials() {
        return new Credentials(user, passwordHash);
    }

    /** Whether any client that reaches the port may read every destination (no canal.passwd, Canal's default). */
    public boolean isOpenToAnyone() {
        return passwordHash.isEmpty();
    }

    @Override
    public String toString() {
        // never print the password hash
        return "ServerConfig[ip=" + ip + ", port=" + port + ", user=" + user + ", passwd="
                + (passwordHash.isEmpty() ? "" : "***") + ", " + limits + "]";
    }

    private static String blankToEmpty(String value) {
        return value == null ? "" : value.trim();
    }
}
