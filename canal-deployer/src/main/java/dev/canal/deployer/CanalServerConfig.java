package dev.canal.deployer;

import dev.canal.deployer.admin.AdminConfig;
import dev.canal.instance.spring.InstanceMetaConfig;
import dev.canal.instance.spring.InstanceProperties;
import dev.canal.instance.spring.InstanceProperties.Source;
import dev.canal.protocol.config.TypedProperties;
import dev.canal.server.metrics.PrometheusExporter;
import dev.canal.server.netty.ServerConfig;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The server-level settings of canal.properties (canal-compat.md 7.2) with Canal's defaults, resolved by 7.1
 * (system property, then environment variable, then the file; blank means absent) and validated: a bad value
 * is a {@link ConfigException} naming the file and key. Instance-level keys ({@code canal.instance.*}) are
 * validated when each destination's instance is built from the same values.
 *
 * @param source          the canal.properties as read, for the instance generator
 * @param tcp             {@code canal.ip}, {@code canal.port}, {@code canal.user}, {@code canal.passwd}, and our
 *                        {@code canal.client.auth.timeout} and {@code canal.client.max.connections}
 * @param zkServers       {@code canal.zkServers}, empty when unset: the server election (canal-compat.md 6.1) and
 *                        default-instance.xml's meta
 * @param registerIp      {@code canal.register.ip}, empty when unset: the address this server registers in ZooKeeper
 * @param withoutNetty    {@code canal.withoutNetty}: no TCP server; always true in an MQ mode
 * @param serverMode      {@code canal.serverMode}
 * @param meta            {@code canal.file.data.dir}, {@code canal.file.flush.period}, ZooKeeper flush period
 * @param destinations    {@code canal.destinations.expr} expanded, else {@code canal.destinations}
 * @param confDir         {@code canal.conf.dir}: the folder holding one folder per destination
 * @param autoScan        {@code canal.auto.scan}
 * @param autoScanIntervalSeconds {@code canal.auto.scan.interval}
 * @param globalLazy      {@code canal.instance.global.lazy}
 * @param globalSpringXml {@code canal.instance.global.spring.xml}
 * @param metricsPort     {@code canal.metrics.pull.port}: the Prometheus exporter's port, 0 or below = none
 * @param mqFlatMessage   {@code canal.mq.flatMessage}: MQ mode sends flat JSON rather than protobuf packets
 */
public record CanalServerConfig(
        Source source,
        ServerConfig tcp,
        String zkServers,
        String registerIp,
        boolean withoutNetty,
        ServerMode serverMode,
        InstanceMetaConfig meta,
        List<String> destinations,
        Path confDir,
        boolean autoScan,
        int autoScanIntervalSeconds,
        boolean globalLazy,
        String globalSpringXml,
        int metricsPort,
        boolean mqFlatMessage) {

    public static final String DESTINATIONS = "canal.destinations";
    public static final String DESTINATIONS_EXPR = "canal.destinations.expr";
    public static final String CONF_DIR = "canal.conf.dir";
    public static final String AUTO_SCAN = "canal.auto.scan";
    public static final String AUTO_SCAN_INTERVAL = "canal.auto.scan.interval";
    public static final String SERVER_MODE = "canal.serverMode";
    public static final String WITHOUT_NETTY = "canal.withoutNetty";
    public static final String GLOBAL_MODE = "canal.instance.global.mode";
    public static final String GLOBAL_LAZY = "canal.instance.global.lazy";
    public static final String GLOBAL_SPRING_XML = "canal.instance.global.spring.xml";
    public static final String METRICS_PORT = PrometheusExporter.PORT_KEY;
    public static final String MQ_FLAT_MESSAGE = "canal.mq.flatMessage";
    public static final String REGISTER_IP = "canal.register.ip";
    private static final int MAX_PORT = 65535;

    public CanalServerConfig {
        destinations = List.copyOf(destinations);
    }

    /** @throws ConfigException naming the file (or override) and key of the first invalid value */
    public static CanalServerConfig load(Source canalProperties) {
        InstanceProperties resolved = InstanceProperties.forServer(canalProperties);
        Reader r = new Reader(resolved);
        String modeText = r.value(SERVER_MODE, "tcp");
        ServerMode mode = ServerMode.parse(modeText);
        if (mode == null) {
            throw r.invalid(SERVER_MODE, "unknown mode '" + modeText + "', expected tcp, kafka, rocketMQ, rabbitMQ or pulsarMQ");
        }
        if (mode != ServerMode.TCP && mode != ServerMode.KAFKA) {
            throw r.invalid(SERVER_MODE, "mode '" + modeText + "' is not supported by this server yet; use tcp or kafka");
        }
        boolean managed = resolved.get(AdminConfig.MANAGER) != null;
        checkInstanceMode(r, GLOBAL_MODE, managed);
        checkManagerAddress(r);
        String expr = r.value(DESTINATIONS_EXPR, null);
        List<String> destinations = expr != null
                ? r.read(DESTINATIONS_EXPR, () -> DestinationNames.expand(expr))
                : DestinationNames.split(r.value(DESTINATIONS, ""));
        for (String destination : destinations) {
            if (destination.contains("/") || destination.contains("\\") || destination.equals("..")
                    || destination.equalsIgnoreCase("spring")) {
                throw r.invalid(expr != null ? DESTINATIONS_EXPR : DESTINATIONS,
                        "'" + destination + "' cannot be a destination name");
            }
        }
        int interval = r.read(AUTO_SCAN_INTERVAL, () -> new TypedProperties(r.effective).integer(AUTO_SCAN_INTERVAL, 5));
        if (interval <= 0) {
            throw r.invalid(AUTO_SCAN_INTERVAL, "must be positive, got " + interval);
        }
        int metricsPort = r.read(METRICS_PORT, () -> new TypedProperties(r.effective).integer(METRICS_PORT,
                PrometheusExporter.DEFAULT_PORT));
        if (metricsPort > MAX_PORT) {
            throw r.invalid(METRICS_PORT, "must be a port number (0 or below disables the exporter), got " + metricsPort);
        }
        CanalServerConfig config = new CanalServerConfig(
                canalProperties,
                r.read(ServerConfig.PORT_KEY, () -> ServerConfig.fromProperties(r.effective)),
                r.value(InstanceMetaConfig.ZK_SERVERS, ""),
                r.value(REGISTER_IP, ""),
                // MQ mode serves no TCP clients (canal-compat.md 8.1)
                r.bool(WITHOUT_NETTY, false) || mode != ServerMode.TCP,
                mode,
                r.read(InstanceMetaConfig.FILE_FLUSH_PERIOD, () -> InstanceMetaConfig.fromProperties(r.effective)),
                destinations,
                Path.of(r.value(CONF_DIR, "../conf")),
                r.bool(AUTO_SCAN, false),
                interval,
                r.bool(GLOBAL_LAZY, false),
                r.value(GLOBAL_SPRING_XML, "classpath:spring/file-instance.xml"),
                metricsPort,
                r.bool(MQ_FLAT_MESSAGE, true));
        for (String destination : destinations) {
            config.lazy(destination);
            checkInstanceMode(r, "canal.instance." + destination + ".mode", managed);
        }
        return config;
    }

    /**
     * {@code spring} (instances from the conf dir) or {@code manager} (from canal-admin, docs/admin.md), which needs
     * {@code canal.admin.manager}; with that key set, every destination comes from canal-admin whatever the mode says,
     * as in Canal.
     */
    private static void checkInstanceMode(Reader r, String key, boolean managed) {
        String mode = r.value(key, "spring");
        if (mode.equalsIgnoreCase("manager") && !managed) {
            throw r.invalid(key, "manager mode takes the instances from canal-admin: set " + AdminConfig.MANAGER);
        }
        if (!mode.equalsIgnoreCase("spring") && !mode.equalsIgnoreCase("manager")) {
            throw r.invalid(key, "unknown mode '" + mode + "', expected spring or manager");
        }
    }

    /**
     * {@code canal.instance.global.manager.address}: canal-admin's template sets it to {@code ${canal.admin.manager}};
     * only that address is supported, so the key may repeat it but not name another one.
     */
    private static void checkManagerAddress(Reader r) {
        String address = r.value(AdminConfig.GLOBAL_MANAGER_ADDRESS, "");
        String manager = r.value(AdminConfig.MANAGER, "");
        if (!address.isEmpty() && !address.equals(manager) && !address.equals("${" + AdminConfig.MANAGER + "}")) {
            throw r.invalid(AdminConfig.GLOBAL_MANAGER_ADDRESS, "canal-admin's address is " + AdminConfig.MANAGER
                    + " ('" + manager + "'); this key may only repeat it, as ${" + AdminConfig.MANAGER + "} does");
        }
    }

    /**
     * The {@code ip:port} this server registers in ZooKeeper and clients are sent to (canal-compat.md 6.1):
     * {@code canal.register.ip}, else {@code canal.ip}, else this host's address; the bound TCP port when there
     * is one (it differs from {@code canal.port} only when that is 0), else {@code canal.port}.
     */
    public String registerAddress(int boundPort) {
        String ip = !registerIp.isEmpty() ? registerIp : !tcp.ip().isEmpty() ? tcp.ip() : hostAddress();
        return ip + ":" + (boundPort > 0 ? boundPort : tcp.port());
    }

    private static String hostAddress() {
        try {
            return InetAddress.getLocalHost().getHostAddress();
        } catch (UnknownHostException e) {
            throw new ConfigException("cannot find this host's address to register in ZooKeeper; set "
                    + REGISTER_IP + " (" + e.getMessage() + ")", e);
        }
    }

    /** {@code canal.instance.{destination}.lazy}, else the global setting. */
    public boolean lazy(String destination) {
        Reader r = new Reader(InstanceProperties.forServer(source));
        String key = "canal.instance." + destination + ".lazy";
        return r.effective.getProperty(key) == null ? globalLazy : r.bool(key, globalLazy);
    }

    /** The keys of canal.properties (and their overrides) this server does not implement or Canal does not know. */
    public TreeSet<String> unsupportedKeys() {
        TreeSet<String> keys = new TreeSet<>();
        for (String key : InstanceProperties.forServer(source).effective().stringPropertyNames()) {
            if (KnownKeys.classify(key) != KnownKeys.Support.IMPLEMENTED) {
                keys.add(key);
            }
        }
        return keys;
    }

    /** Reads keys, turning a bad value into a {@link ConfigException} naming where the value came from. */
    private static final class Reader {

        private final InstanceProperties resolved;
        private final Properties effective;

        Reader(InstanceProperties resolved) {
            this.resolved = resolved;
            this.effective = resolved.effective();
        }

        String value(String key, String defaultValue) {
            return new TypedProperties(effective).string(key, defaultValue);
        }

        boolean bool(String key, boolean defaultValue) {
            return read(key, () -> new TypedProperties(effective).bool(key, defaultValue));
        }

        <T> T read(String key, Supplier<T> reading) {
            try {
                return reading.get();
            } catch (IllegalArgumentException e) {
                throw ConfigException.invalid(resolved.originOf(keyIn(e.getMessage(), key)), keyIn(e.getMessage(), key),
                        e.getMessage());
            }
        }

        ConfigException invalid(String key, String reason) {
            return ConfigException.invalid(resolved.originOf(key), key, reason);
        }

        /** The key a typed record named in its message (a record reads several), else the one asked for. */
        private static String keyIn(String message, String fallback) {
            if (message != null) {
                for (String key : KnownKeys.IMPLEMENTED.keySet()) {
                    if (message.contains(key + " ") || message.contains(key + ":") || message.endsWith(key)) {
                        return key;
                    }
                }
            }
            return fallback;
        }
    }
}
