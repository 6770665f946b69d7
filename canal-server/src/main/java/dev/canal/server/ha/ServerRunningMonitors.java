package dev.canal.server.ha;

import dev.canal.protocol.config.CommonKeys;
import dev.canal.meta.ZooKeeperPaths;
import dev.canal.server.DestinationActivator;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This server's {@link ServerRunningMonitor}s, one per destination (Canal's ServerRunningMonitors), used by
 * the launcher when {@code canal.zkServers} is set. {@link #start()} registers the ephemeral
 * {@code /otter/canal/cluster/{ip:port}} and follows the ZooKeeper connection: a connection SUSPENDED for longer
 * than the {@link FencingDelay} (a fraction of the session, never more than half the takeover delay), or LOST,
 * fences every destination (stops its instance); RECONNECTED within the same session before that keeps the
 * destinations serving; RECONNECTED registers again and rejoins every election. A new session on reconnection
 * fences at once: the old one expired, so another server may already hold the destinations.
 *
 * <p>Typical use by the launcher:
 * <pre>{@code
 * CuratorFramework zk = ZooKeeperConnections.connect(zkServers, sessionTimeout, connectWait);
 * ServerRunningMonitors monitors = new ServerRunningMonitors(zk, registerIp + ":" + port,
 *         ServerRunningListener.embedded(embeddedServer), ServerRunningMonitors.DEFAULT_TAKEOVER_DELAY);
 * monitors.start();
 * for each destination: monitors.register(dest); if not lazy: monitors.start(dest);
 * new CanalNettyServer(config, embeddedServer, monitors.activator(), metrics, true).start();
 * ...
 * monitors.stop(); zk.close();
 * }</pre>
 * The Curator client belongs to the caller, who closes it after {@link #stop()}.
 */
public final class ServerRunningMonitors {

    /** Canal's fixed wait of a standby before it competes for a destination whose holder went away (docs/high-availability.md). */
    public static final Duration DEFAULT_TAKEOVER_DELAY = Duration.ofSeconds(5);

    private static final Logger log = LoggerFactory.getLogger(ServerRunningMonitors.class);
    private static final long STOP_WAIT_SECONDS = 10;
    private static final int PROBES_PER_SESSION = 6;

    private final CuratorFramework zk;
    private final String address;
    private final ServerRunningListener listener;
    private final Duration takeoverDelay;
    private final HandoverConfig handover;
    private final PlacementConfig placement;
    private final PlacementMetrics placementMetrics;
    private final ConcurrentMap<String, ServerRunningMonitor> monitors = new ConcurrentHashMap<>();
    private final ConnectionStateListener connectionListener = this::onConnectionState;

    // written under this, read by Curator's event thread
    private volatile ScheduledExecutorService electionThread;
    private volatile ScheduledExecutorService fencingThread;
    private volatile SessionProbe probe;
    private volatile PlacementBalancer balancer; // null unless balancing

    /** Whether the last stop handed a destination over to a cluster with another server in it; guarded by this. */
    private boolean handedOverToOthers;

    // Curator's event thread only
    private long sessionBeforeSuspension;
    private ScheduledFuture<?> pendingFence;

    /**
     * @param address       this server's {@code registerIp:port} (canal.register.ip or canal.ip or the host IP,
     *                      and canal.port), the name of its nodes and the address clients are sent to
     * @param takeoverDelay how long a standby waits before competing for a destination left without holder
     */
    public ServerRunningMonitors(CuratorFramework zk, String address, ServerRunningListener listener,
            Duration takeoverDelay) {
        this(zk, address, listener, takeoverDelay, HandoverConfig.DEFAULT, PlacementConfig.FIRST_COME);
    }

    /**
     * @param handover  how destinations are handed over when this server stops or releases them
     * @param placement whether and how this server keeps to its share of the destinations
     */
    public ServerRunningMonitors(CuratorFramework zk, String address, ServerRunningListener listener,
            Duration takeoverDelay, HandoverConfig handover, PlacementConfig placement) {
        this.zk = Objects.requireNonNull(zk, "zk");
        this.address = Objects.requireNonNull(address, "address");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.handover = Objects.requireNonNull(handover, "handover");
        this.placement = Objects.requireNonNull(placement, "placement");
        this.placementMetrics = new PlacementMetrics(
                () -> (int) monitors.values().stream().filter(ServerRunningMonitor::isActive).count());
        this.takeoverDelay = Objects.requireNonNull(takeoverDelay, "takeoverDelay");
        if (takeoverDelay.isNegative()) {
            throw new IllegalArgumentException("takeover delay must not be negative, was " + takeoverDelay);
        }
    }

    /**
     * Registers this server in the cluster and starts following the connection.
     *
     * @throws IllegalStateException naming {@code canal.zkServers} when ZooKeeper is not reachable
     */
    public synchronized void start() {
        if (electionThread != null) {
            return;
        }
        if (!zk.getZookeeperClient().isConnected()) {
            throw new IllegalStateException("not connected to ZooKeeper at "
                    + zk.getZookeeperClient().getCurrentConnectionString() + " (" + CommonKeys.ZK_SERVERS.name()
                    + "); connect with ZooKeeperConnections.connect first");
        }
        electionThread = daemonScheduler("canal-server-election");
        fencingThread = daemonScheduler("canal-server-fencing");
        probe = new SessionProbe(zk, negotiatedSessionTimeout().dividedBy(PROBES_PER_SESSION));
        createPersistent(ClusterPaths.CLUSTER);
        createPersistent(ZooKeeperPaths.DESTINATIONS);
        registerServerNode();
        if (placement.balance()) {
            balancer = new PlacementBalancer(zk, address, placement, handover.ackTimeout(), monitors::values,
                    placementMetrics);
        }
        zk.getConnectionStateListenable().addListener(connectionListener);
        log.info("registered {} in ZooKeeper for server election", address);
    }

    /**
     * Hands every destination held here over to the other servers (their clients' batches acked first, for up to
     * {@code canal.handover.ack.timeout}, then all at once), leaves the cluster and stops the election thread.
     */
    public synchronized void stop() {
        if (electionThread == null) {
            return;
        }
        zk.getConnectionStateListenable().removeListener(connectionListener);
        if (balancer != null) {
            balancer.close(); // no move while everything is handed over
            balancer = null;
        }
        Set<String> held = new TreeSet<>();
        monitors.values().stream().filter(ServerRunningMonitor::isActive).forEach(m -> held.add(m.destination()));
        if (!held.isEmpty()) {
            quiesce(held);
            handedOverToOthers = held.stream().anyMatch(this::hasOtherServers);
        }
        for (String destination : List.copyOf(monitors.keySet())) {
            stop(destination);
        }
        deleteQuietly(ClusterPaths.serverNode(address));
        probe.close();
        fencingThread.shutdownNow();
        electionThread.shutdownNow();
        try {
            electionThread.awaitTermination(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        electionThread = null;
        fencingThread = null;
        probe = null;
        log.info("left the server election as {}", address);
    }

    public String address() {
        return address;
    }

    /**
     * Whether the last {@link #stop()} handed a destination over while another server was registered for it: its
     * clients are moving there, and the TCP server should give them {@code canal.handover.client.timeout} to.
     */
    public synchronized boolean handedOverToOthers() {
        return handedOverToOthers;
    }

    /** How destinations are handed over. */
    public HandoverConfig handover() {
        return handover;
    }

    /** The destinations running here and the balancing's moves, for the metrics exporter. */
    public PlacementMetrics placementMetrics() {
        return placementMetrics;
    }

    /**
     * The destination's monitor, created if new. Creating it registers this server under the destination's
     * {@code cluster} node, so clients find a server for a lazy destination before anything runs (docs/high-availability.md).
     */
    public ServerRunningMonitor register(String destination) {
        ScheduledExecutorService election = runningElectionThread();
        ServerRunningMonitor existing = monitors.get(destination);
        if (existing != null) {
            return existing;
        }
        PlacementBalancer balancing = balancer;
        ServerRunningMonitor created = new ServerRunningMonitor(destination, address, zk, listener, election,
                takeoverDelay, balancing != null ? balancing : ClaimGate.ANYONE);
        ServerRunningMonitor raced = monitors.putIfAbsent(destination, created);
        if (raced != null) {
            return raced;
        }
        created.registerClusterNode();
        return created;
    }

    /** Competes for the destination (non-lazy at boot, lazy on the first subscription); no-op if started. */
    public void start(String destination) {
        register(destination).start();
    }

    /**
     * Hands the destination over if held here (its clients' batches acked first); this server competes again after
     * twice the takeover delay.
     */
    public boolean release(String destination) {
        return find(destination).map(m -> m.handOver(handover.ackTimeout())).orElse(false);
    }

    /** Releases the destination if held here and forgets its monitor (destination removed or reloaded). */
    public void stop(String destination) {
        ServerRunningMonitor monitor = monitors.remove(destination);
        if (monitor != null) {
            monitor.stop();
        }
    }

    public Optional<ServerRunningMonitor> find(String destination) {
        return Optional.ofNullable(monitors.get(destination));
    }

    /**
     * The TCP server's activation on a client's subscription to a destination not running here: competes for
     * it, so the instance starts only if this server wins; on a standby the subscription then fails with
     * "should start first" and the official cluster client moves on.
     */
    public DestinationActivator activator() {
        return this::start;
    }

    /** Stops handing out batches of the destinations and waits for their clients' acks, all at once. */
    private void quiesce(Set<String> destinations) {
        long started = System.nanoTime();
        Set<String> unacked = listener.quiesce(destinations, handover.ackTimeout());
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        if (unacked.isEmpty()) {
            log.info("handing over {}: every client batch acked within {} ms", destinations, waited);
        } else {
            log.warn("handing over {}: clients of {} still held batches after {} ms; the servers taking over deliver "
                    + "them again", destinations, unacked, waited);
        }
    }

    /** Whether a server other than this one is registered for the destination (it can take it over). */
    private boolean hasOtherServers(String destination) {
        try {
            return zk.getChildren().forPath(ClusterPaths.destinationCluster(destination)).stream()
                    .anyMatch(server -> !server.equals(address));
        } catch (Exception e) {
            log.warn("cannot list the servers of destination {} ({})", destination, e.toString());
            return false;
        }
    }

    private synchronized ScheduledExecutorService runningElectionThread() {
        if (electionThread == null) {
            throw new IllegalStateException("the server election of " + address + " is not started");
        }
        return electionThread;
    }

    /** Curator's event thread. */
    private void onConnectionState(CuratorFramework client, ConnectionState state) {
        switch (state) {
            case SUSPENDED -> suspend();
            case LOST, READ_ONLY -> fenceAll(state.toString());
            case CONNECTED, RECONNECTED -> {
                cancelPendingFence();
                long session = sessionId();
                if (sessionBeforeSuspension != 0 && session != sessionBeforeSuspension) {
                    // the old session expired: its running nodes are gone and another server may serve already
                    fenceAll("reconnected with a new session");
                }
                sessionBeforeSuspension = 0;
                log.info("ZooKeeper connection {}: {} rejoins the elections", state, address);
                ScheduledExecutorService election = electionThread;
                if (election != null) {
                    election.execute(this::registerServerNode);
                }
                monitors.values().forEach(ServerRunningMonitor::rejoin);
            }
        }
    }

    /**
     * The connection is in doubt: keep serving for the {@link FencingDelay} in case it comes back within the
     * session (a ZooKeeper restart, a leader election in the ensemble), then stop every destination; sooner
     * when ZooKeeper last answered long ago ({@link SessionProbe}), so never later than 2T/3 after that.
     */
    private void suspend() {
        if (sessionBeforeSuspension == 0) {
            sessionBeforeSuspension = sessionId();
        }
        if (pendingFence != null) {
            return;
        }
        ScheduledExecutorService fencing = fencingThread;
        SessionProbe answered = probe;
        if (fencing == null || answered == null) {
            return;
        }
        Duration session = negotiatedSessionTimeout();
        Duration grace = FencingDelay.of(session, takeoverDelay);
        Duration safe = answered.safeFor(session); // shorter after a pause of this process or a silent network
        Duration delay = safe.compareTo(grace) < 0 ? safe : grace;
        log.warn("ZooKeeper connection SUSPENDED: {} fences every destination unless it is back within {} ms",
                address, delay.toMillis());
        try {
            pendingFence = fencing.schedule(() -> fenceAll("suspended for " + delay.toMillis() + " ms"),
                    delay.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopping) {
            log.debug("election stopped, suspension ignored");
        }
    }

    private void fenceAll(String why) {
        log.warn("ZooKeeper connection {}: fencing every destination of {}", why, address);
        monitors.values().forEach(ServerRunningMonitor::fence);
    }

    private void cancelPendingFence() {
        if (pendingFence != null) {
            pendingFence.cancel(false);
            pendingFence = null;
        }
    }

    /** The session timeout the ensemble granted (it bounds what was asked to 2 to 20 ticks). */
    private Duration negotiatedSessionTimeout() {
        try {
            return Duration.ofMillis(zk.getZookeeperClient().getZooKeeper().getSessionTimeout());
        } catch (Exception e) {
            throw new IllegalStateException("no ZooKeeper handle for " + address, e);
        }
    }

    private long sessionId() {
        try {
            return zk.getZookeeperClient().getZooKeeper().getSessionId();
        } catch (Exception e) {
            throw new IllegalStateException("no ZooKeeper handle for " + address, e);
        }
    }

    private static ScheduledExecutorService daemonScheduler(String name) {
        return Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        });
    }

    private void registerServerNode() {
        String path = ClusterPaths.serverNode(address);
        try {
            ServerRegistration.register(zk, path, ServerWeight.encode(placement.weight()));
        } catch (Exception e) {
            log.warn("cannot register {} ({})", path, e.toString());
        }
    }

    private void createPersistent(String path) {
        try {
            zk.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT).forPath(path);
        } catch (KeeperException.NodeExistsException exists) {
            // created by another server or an earlier run
        } catch (Exception e) {
            throw new IllegalStateException("cannot create ZooKeeper node " + path + " ("
                    + CommonKeys.ZK_SERVERS.name() + " " + zk.getZookeeperClient().getCurrentConnectionString()
                    + ")", e);
        }
    }

    private void deleteQuietly(String path) {
        if (!zk.getZookeeperClient().isConnected()) {
            return; // ephemeral: it goes with the session when the caller closes the client
        }
        try {
            zk.delete().forPath(path);
        } catch (KeeperException.NoNodeException gone) {
            // already gone with an old session
        } catch (Exception e) {
            log.warn("cannot delete {} ({})", path, e.toString());
        }
    }
}
