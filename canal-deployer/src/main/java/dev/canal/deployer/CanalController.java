package dev.canal.deployer;

import dev.canal.deployer.mq.MqRunner;
import dev.canal.instance.CanalInstance;
import dev.canal.instance.spring.InstanceProperties.Source;
import dev.canal.instance.spring.SharedZooKeeper;
import dev.canal.instance.spring.SpringCanalInstanceGenerator;
import dev.canal.protocol.config.CommonKeys;
import dev.canal.protocol.config.ConfigValueException;
import dev.canal.server.CanalServer;
import dev.canal.server.EmbeddedCanalServer;
import dev.canal.server.ha.ServerRunningMonitors;
import dev.canal.server.ha.ZooKeeperConnections;
import dev.canal.server.metrics.ClientMetrics;
import dev.canal.server.metrics.PrometheusExporter;
import dev.canal.server.netty.CanalNettyServer;
import dev.canal.store.StoreConfig;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the server of one process (Canal's CanalController): the server's services (the ZooKeeper client, the
 * embedded server, the TCP server or, in MQ mode, the broker's producer, the election, the metrics exporter) and the
 * {@link Destinations} on them, followed by the auto scan of the instance folders or by canal-admin. Every
 * destination's configuration is read, built and validated before anything starts, so an invalid one stops start-up
 * with nothing left running; an instance whose start fails (its source is down, say) is reported and the others run
 * on. What a start sets running, a stop (or a failed start) releases in reverse order.
 *
 * <p>The destinations are {@code canal.destinations}, each configured by its folder of the conf dir and followed by
 * the auto scan; or, in canal-admin's manager mode, those of an {@link InstanceSupply}, which also follows their
 * changes (docs/admin.md).
 */
public final class CanalController {

    private static final Logger log = LoggerFactory.getLogger(CanalController.class);
    private final CanalServerConfig config;
    private final SpringCanalInstanceGenerator generator; // without ZooKeeper; start binds it to the server's client
    private final EmbeddedCanalServer server;
    private final CanalNettyServer netty;
    private final InstanceSupply supply; // null when the destinations are folders of the conf dir
    // written under this by start; read also by the embedded server, the election and TCP threads
    private volatile DestinationRegistry destinations;
    private volatile PrometheusExporter metrics; // null when disabled or not bound
    private Closer started; // guarded by this; null unless running

    /** @param additionalXml Spring XML loaded after each instance's own, replacing its beans (tests, extensions) */
    public CanalController(CanalServerConfig config, String... additionalXml) {
        this(config, null, additionalXml);
    }

    /**
     * @param supply        where the destinations and their properties come from instead of the conf dir
     *                      ({@code canal.destinations} and the auto scan are then not used); null for the conf dir
     * @param additionalXml Spring XML loaded after each instance's own, replacing its beans (tests, extensions)
     */
    public CanalController(CanalServerConfig config, InstanceSupply supply, String... additionalXml) {
        this.config = config;
        this.supply = supply;
        SpringCanalInstanceGenerator files = new SpringCanalInstanceGenerator(instanceDefaults(config),
                config.confDir()).withAdditionalXml(additionalXml);
        this.generator = supply == null ? files : files.withInstanceSource(supply.source());
        this.server = new EmbeddedCanalServer(destination -> destinations.instanceFor(destination),
                config.handover().clientTimeout());
        this.netty = config.withoutNetty() ? null : new CanalNettyServer(config.tcp(), server,
                destination -> destinations.activateForClient(destination), this::isDeployed, new ClientMetrics(),
                true);
    }

    /**
     * @throws ConfigException when a destination folder is missing, a destination's configuration is invalid,
     *     the TCP port cannot be bound or ZooKeeper cannot be reached; nothing keeps running then
     */
    public synchronized void start() {
        List<String> boot = bootDestinations();
        Closer closer = new Closer();
        try {
            SpringCanalInstanceGenerator instances = generator;
            CuratorFramework zooKeeper = null;
            if (!config.zkServers().isEmpty()) {
                zooKeeper = connectZooKeeper();
                closer.add("the ZooKeeper client", zooKeeper::close); // last: the instances push their cursors through it
                instances = generator.withZooKeeper(SharedZooKeeper.of(config.zkServers(), zooKeeper));
            }
            DestinationRegistry registry = new DestinationRegistry(config, instances, server);
            destinations = registry;
            closer.add("the instances not started", registry::discardPrepared);
            registry.prepare(boot);
            server.start();
            closer.add("the instances", server::stop); // each flushes its meta
            if (!config.serverMode().isTcp()) {
                MqRunner mq = createMqRunner();
                closer.add("the MQ workers", mq::close); // before the instances: a worker's batch in hand is rolled back
                registry.useMq(mq);
            }
            if (netty != null) {
                startNetty();
                // the clients of destinations handed over to another server may move there first
                closer.add("the TCP server", () -> netty.stop(registry.clientMoveWait()));
            }
            metrics = startMetrics();
            if (metrics != null) {
                closer.add("the metrics exporter", metrics::stop);
            }
            if (zooKeeper != null) {
                ServerRunningMonitors election = joinElection(zooKeeper, registry);
                // early in a stop: the destinations held here go to the standbys before anything else stops
                closer.add("the election", election::stop);
                registry.useElection(election);
                if (metrics != null) {
                    metrics.watchPlacement(election.placementMetrics());
                }
            }
            closer.add("the destinations", registry::close); // first: no deploy or client starts one while stopping
            List<String> failed = registry.open(boot);
            follow(registry, boot, closer);
            started = closer;
            reportSources(boot, failed);
            logStarted(boot, failed);
        } catch (RuntimeException e) {
            closer.close();
            destinations = null; // none deployed: this start failed
            throw e;
        }
    }

    /** Stops following the configuration, then releases what the start set running, in reverse order. */
    public void stop() {
        Closer running;
        synchronized (this) {
            running = started;
            started = null;
        }
        if (running == null) {
            return;
        }
        log.info("stopping canal server");
        // outside the lock: a scan in progress may be waiting for the destinations, and finds them closed
        running.close();
        log.info("canal server stopped");
    }

    public synchronized boolean isRunning() {
        return started != null;
    }

    public CanalServer server() {
        return server;
    }

    /** The destinations of the running server, for the admin port and canal-admin. */
    public Destinations destinations() {
        return destinations;
    }

    /** The bound TCP port, or -1 without a TCP server. */
    public int port() {
        return netty == null ? -1 : netty.port();
    }

    /** The Prometheus exporter's bound port, or -1 when it is disabled or could not bind. */
    public int metricsPort() {
        PrometheusExporter exporter = metrics;
        return exporter == null ? -1 : exporter.port();
    }

    /** Whether a client may name the destination: deployed here, lazy or not (nothing is before the start). */
    private boolean isDeployed(String destination) {
        DestinationRegistry registry = destinations;
        return registry != null && registry.isDeployed(destination);
    }

    /** The destinations deployed here, lazy ones included. */
    public Set<String> deployedDestinations() {
        DestinationRegistry registry = destinations;
        return registry == null ? Set.of() : registry.deployed();
    }

    /** The destinations whose instance runs here. */
    public Set<String> runningDestinations() {
        DestinationRegistry registry = destinations;
        return registry == null ? Set.of() : registry.running();
    }

    /** canal-admin's destinations, or canal.destinations, each of which must have its folder. */
    private List<String> bootDestinations() {
        if (supply != null) {
            return List.copyOf(supply.destinations());
        }
        for (String destination : config.destinations()) {
            Path file = SpringCanalInstanceGenerator.instanceFile(config.confDir(), destination);
            if (!Files.isRegularFile(file)) {
                throw ConfigException.invalid(config.source().name(), CanalServerConfig.DESTINATIONS.name(),
                        "destination '" + destination + "' has no " + file);
            }
        }
        return config.destinations();
    }

    /** canal-admin's changes, else the auto scan of the conf dir when it is on. */
    private void follow(DestinationRegistry registry, List<String> boot, Closer closer) {
        if (supply != null) {
            closer.add("the follower of canal-admin's instances", supply.follow(registry)::close);
        } else if (config.autoScan()) {
            InstanceScanner scanner = new InstanceScanner(config.confDir(), registry,
                    Duration.ofSeconds(config.autoScanIntervalSeconds()));
            scanner.start(boot);
            closer.add("the auto scan", scanner::stop);
        }
    }

    /** Which destinations stream from their source, and why the others do not, before the start is declared. */
    private void reportSources(List<String> boot, List<String> failed) {
        boolean election = !config.zkServers().isEmpty();
        try {
            SourceReport.waitAndLog(boot, server::runningInstance, destination -> failed.contains(destination) ? null
                    : config.lazy(destination) && netty != null ? "lazy: starts when a client subscribes"
                    : election ? "standby: another server runs it" : null, config.sourceReportWait());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // stopping: the report is not worth waiting for
        }
    }

    private void logStarted(List<String> boot, List<String> failed) {
        String serving = netty != null ? "TCP port " + netty.port()
                : !config.serverMode().isTcp() ? config.serverMode().name() + " mode, no TCP server" : "no TCP server";
        if (failed.isEmpty()) {
            log.info("canal server started: destinations {}, {}", boot, serving);
        } else {
            // never "started" for a destination that is not: its error above names the cause (a corrupt meta.dat, say)
            List<String> others = boot.stream().filter(d -> !failed.contains(d)).toList();
            log.error("canal server running, but destinations {} failed to start (see the errors above) and serve no "
                    + "client until the cause is fixed; destinations {} run, {}", failed, others, serving);
        }
    }

    /**
     * Connects the server's one ZooKeeper client, which the election, the registration and every destination's
     * cursors (default-instance.xml) share: one session per server, whatever the number of destinations.
     *
     * @throws ConfigException naming canal.zkServers when ZooKeeper cannot be reached
     */
    private CuratorFramework connectZooKeeper() {
        Duration session = config.zkSessionTimeout();
        try {
            // Curator wants the connect wait no longer than the session
            return ZooKeeperConnections.connect(config.zkServers(), session, session);
        } catch (RuntimeException e) {
            throw new ConfigException("cannot reach ZooKeeper (" + CommonKeys.ZK_SERVERS.name() + "="
                    + config.zkServers() + "): " + e.getMessage(), e);
        }
    }

    private void startNetty() {
        try {
            netty.start();
        } catch (RuntimeException e) {
            throw new ConfigException("cannot start the TCP server: " + e.getMessage(), e);
        }
    }

    /**
     * Registers this server as {@code registerIp:port} through the server's ZooKeeper client.
     *
     * @throws ConfigException naming canal.zkServers when the registration fails
     */
    private ServerRunningMonitors joinElection(CuratorFramework zooKeeper, DestinationRegistry registry) {
        String address = config.registerAddress(port());
        try {
            ServerRunningMonitors election = new ServerRunningMonitors(zooKeeper, address, registry,
                    ServerRunningMonitors.DEFAULT_TAKEOVER_DELAY, config.handover(), config.placement());
            election.start();
            log.info("server {} registered in ZooKeeper at {} (session timeout {} ms)", address, config.zkServers(),
                    config.zkSessionTimeout().toMillis());
            return election;
        } catch (RuntimeException e) {
            throw new ConfigException("cannot join the server election in ZooKeeper (" + CommonKeys.ZK_SERVERS.name()
                    + "=" + config.zkServers() + "): " + e.getMessage(), e);
        }
    }

    /** MQ mode's runner over the broker's producer: only here are the broker client's classes loaded. */
    private MqRunner createMqRunner() {
        try {
            return MqRunner.create(config.serverMode().mq(), server, config.resolved().effective());
        } catch (ConfigValueException e) {
            throw ConfigException.invalid(e, config.resolved());
        } catch (IllegalArgumentException e) { // the broker client's own check of its settings
            throw new ConfigException("invalid " + config.serverMode().name() + " producer configuration in "
                    + config.source().name() + ": " + e.getMessage(), e);
        }
    }

    /**
     * What the instances see of canal.properties. In MQ mode with flat messages Canal turns raw entries off, as
     * flat messages are built from parsed entries; an instance file may still set it.
     */
    private static Source instanceDefaults(CanalServerConfig config) {
        if (config.serverMode().isTcp() || !MqRunner.sendsFlatMessages(config.resolved().effective())) {
            return config.source();
        }
        Properties values = new Properties();
        values.putAll(config.source().values());
        values.setProperty(StoreConfig.RAW_ENTRY.name(), "false");
        return new Source(config.source().name(), values);
    }

    /**
     * Started before any instance, so every instance is watched from its start. As in Canal, a port that cannot
     * be bound costs the metrics, not the server: it is logged and the server runs on without them.
     */
    private PrometheusExporter startMetrics() {
        ClientMetrics clients = netty != null ? netty.metrics() : new ClientMetrics();
        try {
            return PrometheusExporter.start(config.metricsIp(), config.metricsPort(), server, clients,
                    CanalInstance::getEventSink);
        } catch (UncheckedIOException e) {
            log.error("running without metrics: {}", e.getMessage(), e);
            return null;
        }
    }
}
