package dev.canal.deployer.admin;

import dev.canal.protocol.config.TypedProperties;
import dev.canal.server.netty.Credentials;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The {@code canal.admin.*} keys of canal.properties (docs/admin.md): canal-admin's manager mode and the admin
 * port, validated.
 *
 * @param manager         {@code canal.admin.manager}: canal-admin's {@code host:port}; empty when the server is not
 *                        managed by canal-admin
 * @param port            {@code canal.admin.port}: the admin port; 0 picks a free one; -1 (key absent) opens none
 * @param credentials     {@code canal.admin.user} and {@code canal.admin.passwd} (hex of SHA1(SHA1(password))): what
 *                        the admin port asks of canal-admin, and what this server sends canal-admin when it polls
 * @param registerAuto    {@code canal.admin.register.auto}: canal-admin registers this server on its first poll
 * @param registerCluster {@code canal.admin.register.cluster}: the cluster it registers in, empty for none
 * @param registerName    {@code canal.admin.register.name}: the name it registers under, empty for the host name
 * @param logDir          {@code canal.admin.log.dir} (ours, Canal has a fixed {@code ../logs}): the log folder the
 *                        admin port's LOG requests read
 */
public record AdminConfig(String manager, int port, Credentials credentials, boolean registerAuto,
        String registerCluster, String registerName, Path logDir) {

    public static final String MANAGER = "canal.admin.manager";
    public static final String PORT = "canal.admin.port";
    public static final String USER = "canal.admin.user";
    public static final String PASSWD = "canal.admin.passwd";
    public static final String REGISTER_AUTO = "canal.admin.register.auto";
    public static final String REGISTER_CLUSTER = "canal.admin.register.cluster";
    public static final String REGISTER_NAME = "canal.admin.register.name";
    public static final String LOG_DIR = "canal.admin.log.dir";
    /** Canal's instance-level name of canal-admin's address; only {@code ${canal.admin.manager}} is supported. */
    public static final String GLOBAL_MANAGER_ADDRESS = "canal.instance.global.manager.address";

    /** The port reported to canal-admin when {@code canal.admin.port} is absent, as Canal does. */
    public static final int DEFAULT_PORT = 11110;
    public static final String DEFAULT_USER = "admin";
    public static final String DEFAULT_LOG_DIR = "../logs";
    /** {@code canal.admin.port} absent: no admin port. */
    public static final int NO_PORT = -1;
    private static final int MAX_PORT = 65535;

    public AdminConfig {
        manager = manager == null ? "" : manager.trim();
        registerCluster = registerCluster == null ? "" : registerCluster.trim();
        registerName = registerName == null ? "" : registerName.trim();
        if (!manager.isEmpty() && !isHostPort(manager)) {
            throw new IllegalArgumentException(MANAGER + " must be canal-admin's host:port, got '" + manager + "'");
        }
        if (port < NO_PORT || port > MAX_PORT) {
            throw new IllegalArgumentException(PORT + " must be a port number, got " + port);
        }
        if (!manager.isEmpty() && credentials.passwordHash().isEmpty()) {
            throw new IllegalArgumentException(PASSWD + " is empty, but canal-admin (" + MANAGER + "=" + manager
                    + ") needs it: set it to canal-admin's hex SHA1(SHA1(password))");
        }
    }

    /** @throws IllegalArgumentException naming the key of the first invalid value */
    public static AdminConfig fromProperties(Properties effective) {
        TypedProperties p = new TypedProperties(effective);
        Credentials credentials;
        try {
            credentials = new Credentials(p.string(USER, DEFAULT_USER), p.string(PASSWD, ""));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(PASSWD + ": " + e.getMessage(), e);
        }
        return new AdminConfig(p.string(MANAGER, ""), p.integer(PORT, NO_PORT), credentials,
                p.bool(REGISTER_AUTO, false), p.string(REGISTER_CLUSTER, ""), p.string(REGISTER_NAME, ""),
                Path.of(p.string(LOG_DIR, DEFAULT_LOG_DIR)));
    }

    /** Whether canal-admin holds this server's configuration (manager mode). */
    public boolean managed() {
        return !manager.isEmpty();
    }

    /**
     * Whether the admin port opens: {@code canal.admin.port} set and a password to guard it. Canal would open it
     * without a password and let anyone stop the server; this server does not (docs/admin.md).
     */
    public boolean opensPort() {
        return port != NO_PORT && !credentials.passwordHash().isEmpty();
    }

    /** The port canal-admin knows this server by: the admin port, or Canal's default when none is set. */
    public int registrationPort() {
        return port > 0 ? port : DEFAULT_PORT;
    }

    private static boolean isHostPort(String address) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            return false;
        }
        try {
            int number = Integer.parseInt(address.substring(colon + 1));
            return number > 0 && number <= MAX_PORT;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
