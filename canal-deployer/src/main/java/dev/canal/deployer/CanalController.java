package dev.canal.deployer;

import dev.canal.connector.mq.MqConfig;
import dev.canal.protocol.config.CommonKeys;
import dev.canal.deployer.mq.MqRunner;
import dev.canal.instance.CanalInstance;
import dev.canal.instance.InstanceStartException;
import dev.canal.instance.spring.InstanceConfigException;
import dev.canal.instance.spring.InstanceProperties;
import dev.canal.instance.spring.InstanceProperties.Source;
import dev.canal.instance.spring.SharedZooKeeper;
import dev.canal.instance.spring.SpringCanalInstanceGenerator;
import dev.canal.server.CanalServer;
import dev.canal.server.EmbeddedCanalServer;
import dev.canal.server.ha.ServerRunningListener;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the server of one process (Canal's CanalController): the embedded server with one instance per
 * destination, the TCP server in front of it or, in MQ mode, one MQ worker per destination instead, the metrics
 * exporter, and the auto scan of the instance folders. With {@code canal.zkServers} set, this server registers in
 * ZooKeeper and every destination start goes through its election: the instance (and MQ
 * worker) runs only on the server holding the destination. Every destination's configuration is built and
 * validated before anything starts, so an invalid one stops start-up with nothing left running; an instance
 * whose start fails (its source is down, say) is reported and the others run on.
 *
 * <p>The destinations are {@code canal.destinations}, each configured by its folder of the conf dir and followed by
 * the auto scan; or, in canal-admin's manager mode, those of an {@link InstanceSupply}, which also follows their
 * changes (docs/admin.md). {@link #deploy}, {@link #redeploy}, {@link #undeploy} and {@link #release} serve those
 * followers and the admin port.
 */
public final class CanalController {

    private static final Logger log = LoggerFactory.getLogger(CanalController.class);
    private final CanalServerConfig config;
    /** Builds the destinations' instances; with ZooKeeper, bound to the server's client in {@link #start}. */
    private volatile SpringCanalInstanceGenerator generator;
    private final EmbeddedCanalServer server;
    private final CanalNettyServer netty;
    /** Built and validated, not yet taken by the embedded server (lazy ones until their first client). */
    private final Map<String, CanalInstance> prepared = new ConcurrentHashMap<>();
    /** Destinations deployed here (started or lazy). */
    private final Set<String> deployed = ConcurrentHashMap.newKeySet();
    private final InstanceSupply supply; // null when the destinations are folders of the conf dir
    private InstanceScanner scanner; // guarded by this
    private AutoCloseable follower; // guarded by this; follows the supply's changes
    private PrometheusExporter metrics; // guarded by this
    // written under this; read also by the election and TCP threads
    private volatile MqRunner mq; // null in tcp mode
    private volatile ServerRunningMonitors monitors; // null without ZooKeeper
    /** The server's one ZooKeeper client: election, registration and every destination's cursors. */
    private CuratorFramework zooKeeper; // guarded by this
    private boolean running; // guarded by this

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
        this.server = new EmbeddedCanalServer(this::instanceFor);
        this.netty = config.withoutNetty() ? null
                : new CanalNettyServer(config.tcp(), server, this::activateForClient, new ClientMetrics(), true);
    }

    private CanalInstance instanceFor(String destination) {
        CanalInstance instance = prepared.remove(destination);
        return instance != null ? instance : generator.generate(destination);
    }

    /**
     * @throws ConfigException when a destination folder is missing, a destination's configuration is invalid,
     *     the TCP port cannot be bound or ZooKeeper cannot be reached; nothing keeps running then
     */
    public synchronized void start() {
        List<String> destinations;
        if (supply != null) {
            destinations = List.copyOf(supply.destinations());
        } else {
            destinations = config.destinations();
            requireInstanceFiles(destinations);
        }
        if (!config.zkServers().isEmpty()) {
            connectZooKeeper();
        }
        try {
            for (String destination : destinations) {
                prepared.put(destination, generator.generate(destination));
            }
        } catch (InstanceConfigException e) {
            discardPrepared();
            closeZooKeeper();
            throw new ConfigException(e.getMessage(), e);
        }
        warnUnsupportedKeys(destinations);
        try {
            createMqRunner(destinations);
        } catch (RuntimeException e) {
            closeZooKeeper();
            throw e;
        }
        server.start();
        if (netty != null) {
            try {
                netty.start();
            } catch (RuntimeException e) {
                server.stop();
                discardPrepared();
                closeZooKeeper();
                throw new ConfigException("cannot start the TCP server: " + e.getMessage(), e);
            }
        }
        if (!config.zkServers().isEmpty()) {
            joinElection();
        }
        metrics = startMetrics();
        running = true;
        List<String> failed = new ArrayList<>();
        for (String destination : destinations) {
            deployed.add(destination);
            if (!startUnlessLazy(destination)) {
                failed.add(destination);
            }
        }
        if (supply != null) {
            follower = supply.follow(this);
        } else if (config.autoScan()) {
            scanner = new InstanceScanner(config.confDir(), this, Duration.ofSeconds(config.autoScanIntervalSeconds()));
            scanner.start(config.destinations());
        }
        String serving = netty != null ? "TCP port " + netty.port()
                : mq != null ? config.serverMode().name() + " mode, no TCP server" : "no TCP server";
        if (failed.isEmpty()) {
            log.info("canal server started: destinations {}, {}", destinations, serving);
        } else {
            // never "started" for a destination that is not: its error above names the cause (a corrupt meta.dat, say)
            List<String> others = destinations.stream().filter(d -> !failed.contains(d)).toList();
            log.error("canal server running, but destinations {} failed to start (see the errors above) and serve no "
                    + "client until the cause is fixed; destinations {} run, {}", failed, others, serving);
        }
    }

    /** @throws ConfigException naming canal.destinations when a listed destination has no instance.properties */
    private void requireInstanceFiles(List<String> destinations) {
        for (String destination : destinations) {
            Path file = SpringCanalInstanceGenerator.instanceFile(config.confDir(), destination);
            if (!Files.isRegularFile(file)) {
                throw ConfigException.invalid(config.source().name(), CanalServerConfig.DESTINATIONS.name(),
                        "destination '" + destination + "' has no " + file);
            }
        }
    }

    /** Stops scanning, stops accepting clients, then stops every instance (which flushes its meta). */
    public void stop() {
        InstanceScanner runningScanner;
        AutoCloseable runningFollower;
        synchronized (this) {
            if (!running) {
                return;
            }
            running = false;
            runningScanner = scanner;
            scanner = null;
            runningFollower = follower;
            follower = null;
        }
        // outside the lock: a scan in progress may be waiting for it, and finds the controller stopped
        if (runningScanner != null) {
            runningScanner.stop();
        }
        if (runningFollower != null) {
            try {
                runningFollower.close();
            } catch (Exception e) {
                log.warn("stopping the follower of the instance configurations failed", e);
            }
        }
        synchronized (this) {
            if (netty != null) {
                netty.stop();
            }
            leaveElection(); // releases the destinations held here: standbys take them over
            closeMq(); // before the instances: a worker's batch in hand is rolled back
            if (metrics != null) {
                metrics.stop();
                metrics = null;
            }
            server.stop();
            discardPrepared();
            deployed.clear();
            closeZooKeeper(); // last: the instances push their cursors through it when they stop
        }
        log.info("canal server stopped");
    }

    public synchronized boolean isRunning() {
        return running;
    }

    public CanalServer server() {
        return server;
    }

    /** The bound TCP port, or -1 without a TCP server. */
    public int port() {
        return netty == null ? -1 : netty.port();
    }

    /** The Prometheus exporter's bound port, or -1 when it is disabled or could not bind. */
    public synchronized int metricsPort() {
        return metrics == null ? -1 : metrics.port();
    }

    /** The destinations deployed here, lazy ones included. */
    public Set<String> deployedDestinations() {
        return new TreeSet<>(deployed);
    }

    /** The destinations whose instance runs here. */
    public Set<String> runningDestinations() {
        Set<String> running = new TreeSet<>();
        for (String destination : deployed) {
            if (server.isStart(destination)) {
                running.add(destination);
            }
        }
        return running;
    }

    /** Builds and (unless lazy) starts a new destination. @throws InstanceConfigException on a bad configuration */
    public synchronized void deploy(String destination) {
        if (!running) {
            return;
        }
        CanalInstance instance = generator.generate(destination);
        validateMq(destination);
        warnUnsupportedKeys(destination);
        prepared.put(destination, instance);
        deployed.add(destination);
        startUnlessLazy(destination);
    }

    /**
     * Replaces a running destination with one built from its edited configuration. The new configuration is
     * built first: when it is invalid the running instance is left as it was and the error is thrown.
     */
    public synchronized void redeploy(String destination) {
        if (!running) {
            return;
        }
        CanalInstance replacement = generator.generate(destination);
        validateMq(destination);
        warnUnsupportedKeys(destination);
        withdraw(destination);
        CanalInstance stale = prepared.put(destination, replacement);
        if (stale != null) {
            stale.stop();
        }
        deployed.add(destination);
        startUnlessLazy(destination);
    }

    /** Stops and forgets a destination: its configuration is gone, or an operator stopped it (admin port). */
    public synchronized void undeploy(String destination) {
        if (!running) {
            return;
        }
        deployed.remove(destination); // first: no longer listed once its stop is under way
        withdraw(destination);
        CanalInstance unused = prepared.remove(destination);
        if (unused != null) {
            unused.stop();
        }
    }

    /**
     * Gives the destination up here (canal-admin's instance release): with ZooKeeper the node
     * holding it releases it and another server takes it over; without ZooKeeper it is stopped here. It stays
     * deployed, so a client's subscription or an admin start brings it back.
     *
     * @return whether it ran here
     */
    public synchronized boolean release(String destination) {
        if (!running || !server.isStart(destination)) {
            return false;
        }
        ServerRunningMonitors election = monitors;
        if (election != null) {
            return election.release(destination);
        }
        deactivate(destination);
        return true;
    }

    /**
     * Starts the destination, through the election when there is one. In MQ mode a destination's client, its
     * worker, is there from the start, so lazy changes nothing.
     *
     * @return false when the destination's start failed (logged here with its cause)
     */
    private boolean startUnlessLazy(String destination) {
        ServerRunningMonitors election = monitors;
        if (election != null) {
            election.register(destination); // clients find this server for the destination, lazy or not (docs/high-availability.md)
        }
        if (config.lazy(destination) && mq == null) {
            log.info("destination {} is lazy: it starts when a client subscribes", destination);
            return true;
        }
        try {
            if (election != null) {
                election.start(destination); // runs the instance here only if this server wins
            } else {
                activate(destination);
            }
            return true;
        } catch (InstanceStartException e) {
            log.error("destination {} did not start, the other destinations keep running: {}", destination,
                    e.getMessage(), e);
            return false;
        }
    }

    /** A client subscribes to a destination not running here (a lazy one, or one released). */
    private void activateForClient(String destination) {
        ServerRunningMonitors election = monitors;
        if (election != null) {
            election.start(destination);
        } else {
            server.start(destination);
        }
    }

    /** Leaves the destination's election, if any (releasing it when held here), and stops it here. */
    private void withdraw(String destination) {
        ServerRunningMonitors election = monitors;
        if (election != null) {
            election.stop(destination);
        }
        deactivate(destination);
    }

    /** Starts the destination's instance and, in MQ mode, its worker; the election's activeEnter with ZooKeeper. */
    private void activate(String destination) {
        server.start(destination);
        if (mq != null) {
            mq.start(destination, MqConfig.from(generator.properties(destination).effective()));
        }
    }

    /** Stops the destination's worker, if any, then its instance; the election's activeExit with ZooKeeper. */
    private void deactivate(String destination) {
        if (mq != null) {
            mq.stop(destination);
        }
        server.stop(destination);
    }

    /**
     * Connects the server's one ZooKeeper client, which the election, the registration and every destination's
     * cursors (default-instance.xml) share: one session per server, whatever the number of destinations.
     *
     * @throws ConfigException naming canal.zkServers when ZooKeeper cannot be reached
     */
    private void connectZooKeeper() {
        Duration session = config.zkSessionTimeout();
        try {
            // Curator wants the connect wait no longer than the session
            zooKeeper = ZooKeeperConnections.connect(config.zkServers(), session, session);
        } catch (RuntimeException e) {
            throw new ConfigException("cannot reach ZooKeeper (" + CommonKeys.ZK_SERVERS.name() + "="
                    + config.zkServers() + "): " + e.getMessage(), e);
        }
        generator = generator.withZooKeeper(SharedZooKeeper.of(config.zkServers(), zooKeeper));
    }

    private void closeZooKeeper() {
        if (zooKeeper != null) {
            zooKeeper.close();
            zooKeeper = null;
            generator = generator.withZooKeeper(SharedZooKeeper.NONE);
        }
    }

    /**
     * Registers this server as {@code registerIp:port} through the server's ZooKeeper client.
     *
     * @throws ConfigException naming canal.zkServers when the registration fails; nothing keeps running
     */
    private void joinElection() {
        String address = config.registerAddress(port());
        try {
            ServerRunningMonitors election = new ServerRunningMonitors(zooKeeper, address, new ServerRunningListener() {
                @Override
                public void activeEnter(String destination) {
                    activate(destination);
                }

                @Override
                public void activeExit(String destination) {
                    deactivate(destination);
                }
            }, ServerRunningMonitors.DEFAULT_TAKEOVER_DELAY);
            election.start();
            monitors = election;
        } catch (RuntimeException e) {
            if (netty != null) {
                netty.stop();
            }
            server.stop();
            discardPrepared();
            closeZooKeeper();
            closeMq();
            throw new ConfigException("cannot join the server election in ZooKeeper (" + CommonKeys.ZK_SERVERS.name()
                    + "=" + config.zkServers() + "): " + e.getMessage(), e);
        }
        log.info("server {} registered in ZooKeeper at {} (session timeout {} ms)", address, config.zkServers(),
                config.zkSessionTimeout().toMillis());
    }

    /** Releases the destinations held here (their instances stop); the client stays open for their last pushes. */
    private void leaveElection() {
        if (monitors != null) {
            monitors.stop();
            monitors = null;
        }
    }

    /**
     * In an MQ mode, creates the runner and checks every destination's MQ settings with it. Only here are the
     * connector's classes loaded.
     */
    private void createMqRunner(List<String> destinations) {
        if (config.serverMode().isTcp()) {
            return;
        }
        Properties serverProperties = InstanceProperties.forServer(config.source()).effective();
        try {
            mq = MqRunner.create(config.serverMode().mq(), server, serverProperties);
        } catch (IllegalArgumentException e) {
            discardPrepared();
            throw new ConfigException("invalid " + config.serverMode().name() + " producer configuration in "
                    + config.source().name() + ": " + e.getMessage(), e);
        }
        try {
            destinations.forEach(this::validateMq);
        } catch (ConfigException e) {
            discardPrepared();
            closeMq();
            throw e;
        }
    }

    /** @throws ConfigException naming the destination's file and the key when its MQ settings are invalid */
    private void validateMq(String destination) {
        if (mq == null) {
            return;
        }
        try {
            MqConfig.from(generator.properties(destination).effective());
        } catch (IllegalArgumentException e) {
            throw new ConfigException("invalid MQ configuration of destination " + destination + " ("
                    + SpringCanalInstanceGenerator.instanceFile(config.confDir(), destination) + " or "
                    + config.source().name() + "): " + e.getMessage(), e);
        }
    }

    private void closeMq() {
        if (mq != null) {
            mq.close();
            mq = null;
        }
    }

    /**
     * What the instances see of canal.properties. In MQ mode with flat messages Canal turns raw entries off, as
     * flat messages are built from parsed entries; an instance file may still set it.
     */
    private static Source instanceDefaults(CanalServerConfig config) {
        if (config.serverMode().isTcp()
                || !MqRunner.sendsFlatMessages(InstanceProperties.forServer(config.source()).effective())) {
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
            return PrometheusExporter.start(config.metricsPort(), server, clients, CanalInstance::getEventSink);
        } catch (UncheckedIOException e) {
            log.error("running without metrics: {}", e.getMessage(), e);
            return null;
        }
    }

    private void discardPrepared() {
        for (String destination : List.copyOf(prepared.keySet())) {
            CanalInstance instance = prepared.remove(destination);
            if (instance != null) {
                instance.stop();
            }
        }
    }

    /** One warning for every key, in canal.properties or an instance file, that nothing here reads. */
    private void warnUnsupportedKeys(List<String> destinations) {
        List<String> keys = new ArrayList<>(config.unsupportedKeys());
        destinations.forEach(destination -> keys.addAll(unsupportedInstanceKeys(destination)));
        if (!keys.isEmpty()) {
            log.warn("these configuration keys are not implemented by this server or unknown to Canal, and are "
                    + "ignored: {}", keys);
        }
    }

    /** The same warning for a destination deployed after start-up, by the scan; canal.properties was named then. */
    private void warnUnsupportedKeys(String destination) {
        List<String> keys = unsupportedInstanceKeys(destination);
        if (!keys.isEmpty()) {
            log.warn("these configuration keys of destination {} are not implemented by this server or unknown to "
                    + "Canal, and are ignored: {}", destination, keys);
        }
    }

    /** The keys of a destination's own file that nothing here reads, each with the file it is in. */
    private List<String> unsupportedInstanceKeys(String destination) {
        InstanceProperties properties = generator.properties(destination);
        return properties.effective().stringPropertyNames().stream()
                .filter(key -> !ConfigCatalog.isSupported(key))
                .filter(key -> !config.unsupportedKeys().contains(key))
                .sorted()
                .map(key -> key + " (" + properties.originOf(key) + ")")
                .toList();
    }
}
