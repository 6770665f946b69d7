package dev.canal.deployer;

import dev.canal.connector.mq.MqModes;
import dev.canal.deployer.admin.AdminConfig;
import dev.canal.instance.spring.InstanceMetaConfig;
import dev.canal.instance.spring.InstanceProperties;
import dev.canal.instance.spring.InstanceProperties.Source;
import dev.canal.protocol.DestinationNameRule;
import dev.canal.protocol.UntrustedText;
import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.ConfigValueException;
import dev.canal.protocol.config.TypedProperties;
import dev.canal.server.metrics.PrometheusExporter;
import dev.canal.server.ServerConfig;
import dev.canal.server.ha.HandoverConfig;
import dev.canal.server.ha.PlacementConfig;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The server-level settings of canal.properties (docs/configuration.md) with Canal's defaults, resolved as Canal
 * does (system property, then environment variable, then the file; blank means absent) and validated: a bad value
 * is a {@link ConfigException} naming the file and key. Instance-level keys ({@code canal.instance.*}) are
 * validated when each destination's instance is built from the same values.
 *
 * @param source          the canal.properties as read, for the instance generator
 * @param resolved        its values resolved once, with the system properties and environment of the start
 * @param tcp             {@code canal.ip}, {@code canal.port}, {@code canal.user}, {@code canal.passwd}, and our
 *                        {@code canal.client.auth.timeout} and {@code canal.client.max.connections}
 * @param zkServers       {@code canal.zkServers}, empty when unset: the server election and
 *                        default-instance.xml's meta
 * @param zkSessionTimeout {@code canal.zookeeper.session.timeout} (ours): the session of the server's one
 *                        ZooKeeper client (election, registration, cursors); docs/high-availability.md
 * @param handover        {@code canal.handover.*} (ours): how destinations are handed over to another server
 * @param placement       {@code canal.placement.*} (ours): how the servers spread the destinations among themselves
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
 * @param metricsIp       {@code canal.metrics.pull.ip}: the address it listens on, empty for every interface
 * @param strictKeys      {@code canal.config.strict}: an unknown key stops start-up instead of a warning
 * @param sourceReportWait {@code canal.startup.source.wait}: how long the start waits for each destination to
 *                        reach its source before saying which stream and which do not
 */
public record CanalServerConfig(
        Source source,
        InstanceProperties resolved,
        ServerConfig tcp,
        String zkServers,
        Duration zkSessionTimeout,
        HandoverConfig handover,
        PlacementConfig placement,
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
        String metricsIp,
        boolean strictKeys,
        Duration sourceReportWait) {

    public static final ConfigKey REGISTER_IP = ConfigKey.canal("canal.register.ip", "",
            "Address this server registers in ZooKeeper for clients to reach; default canal.ip, else this host's.");
    public static final ConfigKey ZK_SESSION_TIMEOUT = ConfigKey.ours("canal.zookeeper.session.timeout", "4000",
            "Milliseconds of the server's ZooKeeper session (election and cursors; the ensemble grants 2 to 20 of its "
                    + "ticks): a killed server's destinations move after about this plus 5 s; a pause (GC) longer "
                    + "than it costs the destinations. Fencing stays safe at any value (docs/high-availability.md).")
            .between(1, Integer.MAX_VALUE);
    public static final ConfigKey WITHOUT_NETTY = ConfigKey.canal("canal.withoutNetty", "false",
            "Run no client port (embedded use); always so in MQ modes.");
    public static final ConfigKey SERVER_MODE = ConfigKey.canal("canal.serverMode", "tcp",
            "tcp serves clients on canal.port; the mode of a broker connector on the class path sends every "
                    + "destination's changes to that broker (the modes and their spelling: docs/mq.md).");
    public static final ConfigKey DESTINATIONS = ConfigKey.canal("canal.destinations", "",
            "Destinations to run, comma-separated; each has its folder under canal.conf.dir.");
    public static final ConfigKey DESTINATIONS_EXPR = ConfigKey.canal("canal.destinations.expr", null,
            "Destinations as a pattern with a numeric range, e.g. example{1-3} for example1, example2, example3; replaces canal.destinations.");
    public static final ConfigKey CONF_DIR = ConfigKey.canal("canal.conf.dir", "../conf",
            "Folder holding one folder per destination, each with its instance.properties.");
    public static final ConfigKey AUTO_SCAN = ConfigKey.canal("canal.auto.scan", "false",
            "Watch canal.conf.dir: start destinations whose folder appears, stop those removed, restart those whose "
                    + "instance.properties is modified (touch restarts one).");
    public static final ConfigKey AUTO_SCAN_INTERVAL = ConfigKey.canal("canal.auto.scan.interval", "5",
            "Seconds between scans.").atLeast(1);
    public static final ConfigKey GLOBAL_MODE = ConfigKey.canal("canal.instance.global.mode", "spring",
            "How instances are configured: spring (from the files under canal.conf.dir) or manager (from "
                    + "canal-admin, which canal.admin.manager names; docs/admin.md).").oneOf("spring", "manager");
    public static final ConfigKey GLOBAL_LAZY = ConfigKey.canal("canal.instance.global.lazy", "false",
            "Start a destination only when its first client subscribes.");
    public static final ConfigKey GLOBAL_SPRING_XML = ConfigKey.canal("canal.instance.global.spring.xml",
            "classpath:spring/file-instance.xml", "The instance flavour: memory-, file-, default- (ZooKeeper) or "
                    + "group-instance.xml.");
    public static final ConfigKey DESTINATION_MODE = ConfigKey.canal("canal.instance.{destination}.mode", null,
            "canal.instance.global.mode for one destination.").oneOf("spring", "manager");
    public static final ConfigKey DESTINATION_LAZY = ConfigKey.canal("canal.instance.{destination}.lazy", null,
            "canal.instance.global.lazy for one destination.");
    public static final ConfigKey DESTINATION_SPRING_XML = ConfigKey.canal("canal.instance.{destination}.spring.xml",
            null, "canal.instance.global.spring.xml for one destination.");

    public static final ConfigKey STRICT_KEYS = ConfigKey.ours("canal.config.strict", "false",
            "Refuse to start, or to deploy a destination, when a file or override holds a key that neither this server "
                    + "nor Canal declares (a misspelling, say); by default such a key is named in a warning and ignored.");

    public static final ConfigKey SOURCE_REPORT_WAIT = ConfigKey.ours("canal.startup.source.wait", "10",
            "Seconds the start waits for each destination to connect to its source, so that the log and "
                    + "bin/startup.sh say which destinations stream and why the others do not; 0 reports at once.")
            .between(0, 3600);

    public static final List<ConfigKey> KEYS = List.of(STRICT_KEYS, SOURCE_REPORT_WAIT, REGISTER_IP, ZK_SESSION_TIMEOUT, WITHOUT_NETTY, SERVER_MODE, DESTINATIONS,
            DESTINATIONS_EXPR, CONF_DIR, AUTO_SCAN, AUTO_SCAN_INTERVAL, GLOBAL_MODE, GLOBAL_LAZY, GLOBAL_SPRING_XML,
            DESTINATION_MODE, DESTINATION_LAZY, DESTINATION_SPRING_XML);

    public CanalServerConfig {
        destinations = List.copyOf(destinations);
    }

    /** @throws ConfigException naming the file (or override) and key of the first invalid value */
    public static CanalServerConfig load(Source canalProperties) {
        InstanceProperties resolved = InstanceProperties.forServer(canalProperties);
        Reader r = new Reader(resolved);
        String modeText = r.value(SERVER_MODE);
        ServerMode mode = ServerMode.parse(modeText);
        if (mode == null) {
            throw r.invalid(SERVER_MODE, "unknown mode '" + modeText + "', expected " + ServerMode.TCP_NAME
                    + " or the mode of a broker connector on the class path, of which there are "
                    + MqModes.names());
        }
        boolean managed = resolved.get(AdminConfig.MANAGER.name()) != null;
        checkInstanceMode(r, GLOBAL_MODE.name(), managed);
        checkManagerAddress(r);
        String expr = r.value(DESTINATIONS_EXPR);
        List<String> destinations = expr != null
                ? r.read(DESTINATIONS_EXPR.name(), () -> DestinationNames.expand(expr))
                : DestinationNames.split(r.value(DESTINATIONS));
        for (String destination : destinations) {
            if (!DestinationNameRule.isWellFormed(destination) || destination.equalsIgnoreCase("spring")) {
                throw r.invalid(expr != null ? DESTINATIONS_EXPR : DESTINATIONS, UntrustedText.quote(destination)
                        + " cannot be a destination name (letters, digits, _, - and ., at most "
                        + DestinationNameRule.MAX_PART_LENGTH + ", not spring)");
            }
        }
        int interval = r.read(() -> new TypedProperties(r.effective).integer(AUTO_SCAN_INTERVAL));
        int metricsPort = r.read(() -> new TypedProperties(r.effective).integer(PrometheusExporter.PORT));
        long sessionMillis = r.read(() -> new TypedProperties(r.effective).longValue(ZK_SESSION_TIMEOUT));
        CanalServerConfig config = new CanalServerConfig(
                canalProperties,
                resolved,
                r.read(() -> ServerConfig.fromProperties(r.effective)),
                r.value(InstanceMetaConfig.ZK_SERVERS),
                Duration.ofMillis(sessionMillis),
                r.read(() -> HandoverConfig.fromProperties(r.effective)),
                r.read(() -> PlacementConfig.fromProperties(r.effective)),
                r.value(REGISTER_IP),
                // MQ mode serves no TCP clients
                r.bool(WITHOUT_NETTY) || !mode.isTcp(),
                mode,
                r.read(() -> InstanceMetaConfig.fromProperties(r.effective)),
                destinations,
                // absolute, so that paths in messages read /opt/canal/conf rather than ../conf or bin/../conf
                Path.of(r.value(CONF_DIR)).toAbsolutePath().normalize(),
                r.bool(AUTO_SCAN),
                interval,
                r.bool(GLOBAL_LAZY),
                r.value(GLOBAL_SPRING_XML),
                metricsPort,
                r.value(PrometheusExporter.IP),
                r.bool(STRICT_KEYS),
                Duration.ofSeconds(r.read(() -> new TypedProperties(r.effective).integer(SOURCE_REPORT_WAIT))));
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
        String mode = new TypedProperties(r.effective).string(key, "spring");
        r.read(() -> {
            GLOBAL_MODE.constraint().check(key, mode); // the per-destination key takes the same values
            return mode;
        });
        if (mode.equalsIgnoreCase("manager") && !managed) {
            throw r.invalid(key, "manager mode takes the instances from canal-admin: set " + AdminConfig.MANAGER.name());
        }
    }

    /**
     * {@code canal.instance.global.manager.address}: canal-admin's template sets it to {@code ${canal.admin.manager}};
     * only that address is supported, so the key may repeat it but not name another one.
     */
    private static void checkManagerAddress(Reader r) {
        String address = r.value(AdminConfig.GLOBAL_MANAGER_ADDRESS);
        String manager = r.value(AdminConfig.MANAGER);
        String managerKey = AdminConfig.MANAGER.name();
        if (!address.isEmpty() && !address.equals(manager) && !address.equals("${" + managerKey + "}")) {
            throw r.invalid(AdminConfig.GLOBAL_MANAGER_ADDRESS, "canal-admin's address is " + managerKey
                    + " ('" + manager + "'); this key may only repeat it, as ${" + managerKey + "} does");
        }
    }

    /**
     * The {@code ip:port} this server registers in ZooKeeper and clients are sent to:
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
        Reader r = new Reader(resolved);
        String key = "canal.instance." + destination + ".lazy";
        return r.effective.getProperty(key) == null ? globalLazy
                : r.read(key, () -> new TypedProperties(r.effective).bool(key, globalLazy));
    }

    /** The keys of canal.properties (and their overrides) this server does not implement or nobody declares. */
    UnusedKeys unusedKeys() {
        return UnusedKeys.of(resolved, Set.of());
    }

    /** Reads keys, turning a bad value into a {@link ConfigException} naming where the value came from. */
    private static final class Reader {

        private final InstanceProperties resolved;
        private final Properties effective;

        Reader(InstanceProperties resolved) {
            this.resolved = resolved;
            this.effective = resolved.effective();
        }

        String value(ConfigKey key) {
            return read(() -> new TypedProperties(effective).string(key));
        }

        boolean bool(ConfigKey key) {
            return read(() -> new TypedProperties(effective).bool(key));
        }

        /** A typed read or record, whose error carries the key it is about. */
        <T> T read(Supplier<T> reading) {
            try {
                return reading.get();
            } catch (ConfigValueException e) {
                throw ConfigException.invalid(e, resolved);
            }
        }

        /** A reading of one key whose error may not carry it. */
        <T> T read(String key, Supplier<T> reading) {
            try {
                return read(reading);
            } catch (IllegalArgumentException e) {
                throw invalid(key, e.getMessage());
            }
        }

        ConfigException invalid(ConfigKey key, String reason) {
            return invalid(key.name(), reason);
        }

        ConfigException invalid(String key, String reason) {
            return ConfigException.invalid(resolved.originOf(key), key, reason);
        }
    }
}
