package dev.canal.binlog.net;

/**
 * Everything needed to open an authenticated connection to a MySQL or MariaDB server.
 *
 * @param defaultSchema schema to select at login ({@code canal.instance.defaultDatabaseName}); null or blank for none
 */
public record ConnectionOptions(String host, int port, String user, String password, String defaultSchema,
        NetworkOptions network, SslOptions ssl) {

    public ConnectionOptions {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host must not be blank");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        if (user == null) {
            throw new IllegalArgumentException("user must not be null");
        }
        password = password == null ? "" : password;
        network = network == null ? NetworkOptions.defaults() : network;
        ssl = ssl == null ? SslOptions.disabled() : ssl;
    }

    /** Plain TCP with Canal's default socket settings and no default schema. */
    public static ConnectionOptions of(String host, int port, String user, String password) {
        return new ConnectionOptions(host, port, user, password, null, NetworkOptions.defaults(), SslOptions.disabled());
    }

    public ConnectionOptions withSsl(SslOptions options) {
        return new ConnectionOptions(host, port, user, password, defaultSchema, network, options);
    }

    public ConnectionOptions withNetwork(NetworkOptions options) {
        return new ConnectionOptions(host, port, user, password, defaultSchema, options, ssl);
    }

    public ConnectionOptions withUser(String newUser, String newPassword) {
        return new ConnectionOptions(host, port, newUser, newPassword, defaultSchema, network, ssl);
    }

    String address() {
        return host + ":" + port;
    }

    @Override
    public String toString() {
        return "ConnectionOptions[" + user + "@" + address() + ", schema=" + defaultSchema + ", " + network + ", "
                + ssl + "]"; // never the password
    }
}
