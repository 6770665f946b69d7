package dev.canal.deployer.admin;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.ConfigValueException;
import dev.canal.protocol.config.TypedProperties;
import dev.canal.server.netty.Credentials;
import java.nio.file.Path;
import java.util.List;
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

    public static final ConfigKey MANAGER = ConfigKey.canal("canal.admin.manager", "",
            "canal-admin's host:port: the server takes canal.properties and its instances from canal-admin "
                    + "(docs/admin.md). Empty: configured from local files.");
    public static final ConfigKey PORT = ConfigKey.canal("canal.admin.port", null,
            "The admin port canal-admin connects to; absent opens none (Canal opens 11110), and it opens only when "
                    + "canal.admin.passwd is set.").between(0, 65535);
    public static final ConfigKey USER = ConfigKey.canal("canal.admin.user", "admin",
            "User canal-admin logs in as, and this server polls canal-admin as.");
    public static final ConfigKey PASSWD = ConfigKey.canal("canal.admin.passwd", "",
            "That user's password as 40 hex digits of SHA1(SHA1(password)); required in manager mode and for the "
                    + "admin port.");
    public static final ConfigKey REGISTER_AUTO = ConfigKey.canal("canal.admin.register.auto", "false",
            "canal-admin registers this server on its first poll.");
    public static final ConfigKey REGISTER_CLUSTER = ConfigKey.canal("canal.admin.register.cluster", "",
            "The canal-admin cluster to register in; empty for none.");
    public static final ConfigKey REGISTER_NAME = ConfigKey.canal("canal.admin.register.name", "",
            "The name to register under; empty for the host name.");
    public static final ConfigKey LOG_DIR = ConfigKey.ours("canal.admin.log.dir", "../logs",
            "The log folder the admin port's log requests read (Canal's is fixed at ../logs).");
    public static final ConfigKey GLOBAL_MANAGER_ADDRESS = ConfigKey.canal("canal.instance.global.manager.address",
            "${canal.admin.manager}", "canal-admin's address for manager-mode instances; only canal.admin.manager's "
                    + "own value is supported.");

    public static final List<ConfigKey> KEYS = List.of(MANAGER, PORT, USER, PASSWD, REGISTER_AUTO, REGISTER_CLUSTER,
            REGISTER_NAME, LOG_DIR, GLOBAL_MANAGER_ADDRESS);

    /** The port reported to canal-admin when {@code canal.admin.port} is absent, as Canal does. */
    public static final int DEFAULT_PORT = 11110;
    /** {@code canal.admin.port} absent: no admin port. */
    public static final int NO_PORT = -1;

    public AdminConfig {
        manager = manager == null ? "" : manager.trim();
        registerCluster = registerCluster == null ? "" : registerCluster.trim();
        registerName = registerName == null ? "" : registerName.trim();
        if (!manager.isEmpty() && !isHostPort(manager)) {
            throw ConfigValueException.invalid(MANAGER.name(), manager, "must be canal-admin's host:port");
        }
        if (port != NO_PORT) {
            PORT.check(Integer.toString(port));
        }
        if (!manager.isEmpty() && credentials.passwordHash().isEmpty()) {
            throw ConfigValueException.missing(PASSWD.name(), "canal-admin (" + MANAGER.name() + "=" + manager
                    + ") needs it: set it to canal-admin's hex SHA1(SHA1(password))");
        }
    }

    /** @throws ConfigValueException carrying the key of the first invalid value */
    public static AdminConfig fromProperties(Properties effective) {
        TypedProperties p = new TypedProperties(effective);
        Credentials credentials;
        try {
            credentials = new Credentials(p.string(USER), p.string(PASSWD));
        } catch (IllegalArgumentException e) {
            throw ConfigValueException.secret(PASSWD.name(), e.getMessage());
        }
        return new AdminConfig(p.string(MANAGER), p.integer(PORT.name(), NO_PORT), credentials,
                p.bool(REGISTER_AUTO), p.string(REGISTER_CLUSTER), p.string(REGISTER_NAME),
                Path.of(p.string(LOG_DIR)));
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
            return number > 0 && number <= 65535;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
