package dev.canal.deployer;

import dev.canal.deployer.mq.MqRunner;
import dev.canal.instance.CanalInstance;
import dev.canal.instance.InstanceStartException;
import dev.canal.instance.spring.InstanceConfigException;
import dev.canal.instance.spring.SpringCanalInstanceGenerator;
import dev.canal.server.EmbeddedCanalServer;
import dev.canal.server.ha.ServerRunningListener;
import dev.canal.server.ha.ServerRunningMonitors;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The destinations deployed on this server, each with the {@link DestinationConfig} it was deployed with and its
 * instance: deploy, redeploy, undeploy and release, and the activation of a destination (its instance and, in MQ
 * mode, its worker) when the election gives it to this server or a client subscribes to it. With ZooKeeper, every
 * start goes through the election, so the instance runs only on the server holding the destination.
 */
final class DestinationRegistry implements Destinations, ServerRunningListener {

    private static final Logger log = LoggerFactory.getLogger(DestinationRegistry.class);

    private final CanalServerConfig config;
    private final SpringCanalInstanceGenerator generator;
    private final EmbeddedCanalServer server;
    /** Each deployed destination's configuration, as read when it was (re)deployed. */
    private final Map<String, DestinationConfig> configs = new ConcurrentHashMap<>();
    /** Built and validated, not yet taken by the embedded server (lazy ones until their first client). */
    private final Map<String, CanalInstance> prepared = new ConcurrentHashMap<>();
    /** Readies the instances of destinations this server stands by for, one at a time, off the election thread. */
    private final ExecutorService readying = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "canal-standby-prepare");
        thread.setDaemon(true);
        return thread;
    });
    private final Set<String> readyingNow = ConcurrentHashMap.newKeySet();
    // set while the server starts; read also by the election and TCP threads
    private volatile MqRunner mq; // null in tcp mode
    private volatile ServerRunningMonitors election; // null without ZooKeeper
    private volatile boolean open; // written under this
    /** What clients may still name while the server stops: those deployed when it began to (written under this). */
    private volatile Set<String> closing = Set.of();

    DestinationRegistry(CanalServerConfig config, SpringCanalInstanceGenerator generator,
            EmbeddedCanalServer server) {
        this.config = config;
        this.generator = generator;
        this.server = server;
    }

    /** What the embedded server runs for a destination: its prepared instance, else one of its held configuration. */
    CanalInstance instanceFor(String destination) {
        CanalInstance instance = prepared.remove(destination);
        if (instance != null) {
            return instance;
        }
        DestinationConfig held = configs.get(destination);
        return generator.generate(held != null ? held.properties() : generator.properties(destination));
    }

    /**
     * Reads and builds the destinations of the start, each once, before anything runs, and names every key of
     * their files and of canal.properties that nothing acts on in one warning per unknown key and one for the rest.
     *
     * @throws ConfigException naming the destination and the key of the first invalid configuration, or of the
     *     first unknown key with {@code canal.config.strict}
     */
    void prepare(List<String> destinations) {
        UnusedKeys unused = checked(config.unusedKeys());
        Set<String> serverKeys = unused.keys();
        try {
            for (String destination : destinations) {
                DestinationConfig read = read(destination);
                unused = unused.plus(checked(read.unusedKeys(serverKeys)));
                prepared.put(destination, generator.generate(read.properties()));
                configs.put(destination, read);
            }
        } catch (InstanceConfigException e) {
            throw new ConfigException(e.getMessage(), e);
        }
        unused.warn(log, "");
    }

    /** The unused keys, unless {@code canal.config.strict} refuses unknown ones among them. */
    private UnusedKeys checked(UnusedKeys unused) {
        if (config.strictKeys()) {
            unused.refuseUnknown();
        }
        return unused;
    }

    /** MQ mode's runner: each destination's worker starts and stops with its instance. */
    void useMq(MqRunner runner) {
        mq = runner;
    }

    /** The server election, which every start of a destination goes through from now on. */
    void useElection(ServerRunningMonitors monitors) {
        election = monitors;
    }

    /**
     * Starts the prepared destinations (each through the election when there is one) and opens the registry to
     * deploys.
     *
     * @return the destinations whose start failed (logged with its cause)
     */
    synchronized List<String> open(List<String> destinations) {
        open = true;
        List<String> failed = new ArrayList<>();
        for (String destination : destinations) {
            if (!startUnlessLazy(destination)) {
                failed.add(destination);
            }
        }
        return failed;
    }

    /**
     * Refuses deploys and activations from now on and forgets the deployed destinations; their instances stop later.
     * Their clients may still name them until the TCP server stops, so that those being handed over to another server
     * are answered with nothing rather than refused (docs/high-availability.md, "Stopping a server").
     */
    synchronized void close() {
        open = false;
        readying.shutdownNow();
        closing = Set.copyOf(configs.keySet());
        configs.clear();
    }

    /** Stops the instances built but never taken by the embedded server. */
    void discardPrepared() {
        for (String destination : List.copyOf(prepared.keySet())) {
            CanalInstance instance = prepared.remove(destination);
            if (instance != null) {
                instance.stop();
            }
        }
    }

    @Override
    public Set<String> deployed() {
        return new TreeSet<>(configs.keySet());
    }

    /**
     * Whether a client may name the destination: deployed here, or deployed when the server began to stop; without
     * copying the set (asked on every client request).
     */
    public boolean isDeployed(String destination) {
        return configs.containsKey(destination) || closing.contains(destination);
    }

    @Override
    public Set<String> running() {
        Set<String> running = new TreeSet<>();
        for (String destination : configs.keySet()) {
            if (server.isStart(destination)) {
                running.add(destination);
            }
        }
        return running;
    }

    @Override
    public synchronized void deploy(String destination) {
        if (!open) {
            return;
        }
        DestinationConfig read = build(destination);
        configs.put(destination, read);
        startUnlessLazy(destination);
    }

    @Override
    public synchronized void redeploy(String destination) {
        if (!open) {
            return;
        }
        DestinationConfig read = build(destination);
        withdraw(destination);
        configs.put(destination, read);
        startUnlessLazy(destination);
    }

    @Override
    public synchronized void undeploy(String destination) {
        if (!open) {
            return;
        }
        configs.remove(destination); // first: no longer listed once its stop is under way
        withdraw(destination);
        CanalInstance unused = prepared.remove(destination);
        if (unused != null) {
            unused.stop();
        }
    }

    @Override
    public synchronized boolean release(String destination) {
        if (!open || !server.isStart(destination)) {
            return false;
        }
        ServerRunningMonitors monitors = election;
        if (monitors != null) {
            return monitors.release(destination);
        }
        activeExit(destination);
        return true;
    }

    /** A client subscribes to a destination not running here (a lazy one, or one released). */
    void activateForClient(String destination) {
        requireOpen(destination);
        ServerRunningMonitors monitors = election;
        if (monitors != null) {
            monitors.start(destination);
        } else {
            server.start(destination);
        }
    }

    /**
     * How long the TCP server, stopping, should let clients move to the servers that took over the destinations
     * this one handed over: none without ZooKeeper or when no other server could take them.
     */
    Duration clientMoveWait() {
        ServerRunningMonitors monitors = election;
        return monitors != null && monitors.handedOverToOthers() ? monitors.handover().clientTimeout() : Duration.ZERO;
    }

    /** Stops handing out batches of the destinations and waits for their clients' acks, before a handover. */
    @Override
    public Set<String> quiesce(Set<String> destinations, Duration wait) {
        return server.quiesce(destinations, wait);
    }

    /** An official client is told to connect here after a takeover: its gets find nothing until it rolls back. */
    @Override
    public void clientReconnecting(String subscription, short clientId) {
        server.expectReconnect(subscription, clientId);
    }

    /** Starts the destination's instance and, in MQ mode, its worker; the election calls it with ZooKeeper. */
    @Override
    public void activeEnter(String destination) {
        requireOpen(destination);
        MqRunner runner = mq;
        DestinationConfig held = configs.get(destination);
        if (runner != null) {
            if (held == null) {
                throw new IllegalStateException("destination " + destination + " is not deployed here");
            }
            try {
                runner.prepare(destination); // exactly once: parsing starts from the cursor committed with the broker
            } catch (IllegalStateException e) {
                throw new InstanceStartException(destination, "MQ transactional producer", e);
            }
        }
        server.start(destination);
        if (runner != null) {
            runner.start(destination, held.mq());
        }
    }

    /**
     * Another server holds the destination: its instance is built (if the last one ran here) and readied in the
     * background, its schema history loaded, so that a takeover only has to start the dump (a warm standby).
     */
    @Override
    public void standingBy(String destination) {
        if (!open || !configs.containsKey(destination) || !readyingNow.add(destination)) {
            return;
        }
        try {
            readying.execute(() -> ready(destination));
        } catch (RejectedExecutionException stopping) {
            readyingNow.remove(destination);
        }
    }

    private void ready(String destination) {
        try {
            DestinationConfig held = configs.get(destination);
            if (!open || held == null || server.isStart(destination)) {
                return;
            }
            prepared.computeIfAbsent(destination, d -> generator.generate(held.properties())).prepare();
            log.info("destination {}: ready to take over", destination);
        } catch (RuntimeException e) {
            log.warn("destination {}: could not ready the instance ahead of a takeover, which readies it then: {}",
                    destination, e.toString());
        } finally {
            readyingNow.remove(destination);
        }
    }

    /** Stops the destination's worker, if any, then its instance; the election calls it with ZooKeeper. */
    @Override
    public void activeExit(String destination) {
        MqRunner runner = mq;
        if (runner != null) {
            runner.stop(destination);
        }
        server.stop(destination);
    }

    private void requireOpen(String destination) {
        if (!open) {
            throw new IllegalStateException("the server is stopping: destination " + destination + " is not started");
        }
    }

    /**
     * Reads the destination's configuration and builds its instance, which replaces one prepared before and not
     * yet taken; nothing else changes when either fails.
     */
    private DestinationConfig build(String destination) {
        DestinationConfig read = read(destination);
        UnusedKeys unused = checked(read.unusedKeys(config.unusedKeys().keys()));
        CanalInstance instance = generator.generate(read.properties());
        unused.warn(log, "destination " + destination + ": ");
        CanalInstance stale = prepared.put(destination, instance);
        if (stale != null) {
            stale.stop();
        }
        return read;
    }

    /** The destination's configuration, its file read once. */
    private DestinationConfig read(String destination) {
        return DestinationConfig.of(generator.properties(destination), !config.serverMode().isTcp());
    }

    /**
     * Starts the destination, through the election when there is one. In MQ mode a destination's client, its
     * worker, is there from the start, so lazy changes nothing.
     *
     * @return false when the destination's start failed (logged here with its cause)
     */
    private boolean startUnlessLazy(String destination) {
        ServerRunningMonitors monitors = election;
        if (monitors != null) {
            monitors.register(destination); // clients find this server for the destination, lazy or not (docs/high-availability.md)
        }
        if (config.lazy(destination) && config.serverMode().isTcp()) {
            log.info("destination {} is lazy: it starts when a client subscribes", destination);
            return true;
        }
        try {
            if (monitors != null) {
                monitors.start(destination); // runs the instance here only if this server wins
            } else {
                activeEnter(destination);
            }
            return true;
        } catch (InstanceStartException e) {
            log.error("destination {} did not start, the other destinations keep running: {}", destination,
                    e.getMessage(), e);
            return false;
        }
    }

    /** Leaves the destination's election, if any (releasing it when held here), and stops it here. */
    private void withdraw(String destination) {
        ServerRunningMonitors monitors = election;
        if (monitors != null) {
            monitors.stop(destination);
        }
        activeExit(destination);
    }
}
