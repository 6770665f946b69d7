package dev.canal.server.netty;

import java.util.HexFormat;
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
 */
public record ServerConfig(String ip, int port, String user, String passwordHash, int maxFrameLength) {

    public static final String IP_KEY = "canal.ip";
    public static final String PORT_KEY = "canal.port";
    public static final String USER_KEY = "canal.user";
    public static final String PASSWD_KEY = "canal.passwd";

    public static final int DEFAULT_PORT = 11111;
    public static final int DEFAULT_MAX_FRAME_LENGTH = 1 << 20;
    private static final int SHA1_HEX_LENGTH = 40;

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
        if (!passwordHash.isEmpty() && !isSha1Hex(passwordHash)) {
            throw new IllegalArgumentException(PASSWD_KEY + " must be 40 hex digits (hex of SHA1(SHA1(password)))");
        }
        if (maxFrameLength < 64) {
            throw new IllegalArgumentException("maxFrameLength must be at least 64 bytes, got " + maxFrameLength);
        }
    }

    /** Listens on every interface at the given port (0 picks a free one), without authentication. */
    public static ServerConfig open(int port) {
        return new ServerConfig("", port, "", "", DEFAULT_MAX_FRAME_LENGTH);
    }

    /** Reads {@code canal.ip}, {@code canal.port}, {@code canal.user} and {@code canal.passwd}. */
    public static ServerConfig fromProperties(Properties properties) {
        Objects.requireNonNull(properties, "properties");
        String portText = blankToEmpty(properties.getProperty(PORT_KEY));
        int port;
        try {
            port = portText.isEmpty() ? DEFAULT_PORT : Integer.parseInt(portText);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PORT_KEY + " is not a number: '" + portText + "'", e);
        }
        return new ServerConfig(properties.getProperty(IP_KEY), port, properties.getProperty(USER_KEY),
                properties.getProperty(PASSWD_KEY), DEFAULT_MAX_FRAME_LENGTH);
    }

    public ServerConfig withCredentials(String newUser, String newPasswordHash) {
        return new ServerConfig(ip, port, newUser, newPasswordHash, maxFrameLength);
    }

    public ServerConfig withMaxFrameLength(int newMaxFrameLength) {
        return new ServerConfig(ip, port, user, passwordHash, newMaxFrameLength);
    }

    /** The stored SHA1(SHA1(password)), or null when no password is configured. */
    byte[] passwordDoubleSha1() {
        return passwordHash.isEmpty() ? null : HexFormat.of().parseHex(passwordHash.toLowerCase());
    }

    @Override
    public String toString() {
        // never print the password hash
        return "ServerConfig[ip=" + ip + ", port=" + port + ", user=" + user + ", passwd="
                + (passwordHash.isEmpty() ? "" : "***") + ", maxFrameLength=" + maxFrameLength + "]";
    }

    private static boolean isSha1Hex(String text) {
        return text.length() == SHA1_HEX_LENGTH && text.chars().allMatch(c -> Character.digit(c, 16) >= 0);
    }

    private static String blankToEmpty(String value) {
        return value == null ? "" : value.trim();
    }
}
