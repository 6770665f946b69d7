package dev.canal.server.ha;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Active/standby election of one destination across servers (Canal's ServerRunningMonitor). Its creation by {@link ServerRunningMonitors} registers
 * {@code /otter/canal/destinations/{dest}/cluster/{ip:port}}; starting it tries to create the ephemeral
 * {@code /otter/canal/destinations/{dest}/running} node with this server's {@link ServerRunningData}; the server
 * that creates it starts the instance through its {@link ServerRunningListener}, the others stay standby
 * (instance not started, so not connected to MySQL) and watch the node. When the node goes away, the server
 * that held it and did not release it retries at once, every other one after the takeover delay (Canal: 5 s).
 * Releasing stops the instance and deletes the node; stopping also unregisters the server from the
 * destination.
 *
 * <h2>Handover</h2>
 * A server that gives the destination up on purpose (a release, a stop; {@link #handOver}) first has its
 * clients' batches acked ({@link ServerRunningListener#quiesce}), stops the instance (which pushes the cursors),
 * writes a {@link HandoverNote} naming the running node it gives up, and only then deletes that node. A standby
 * that sees the node it knew go with such a note beside it competes at once rather
 * than after the takeover delay: the delay is there for a holder that may still be serving, and this one has
 * stopped. Once its instance runs, the new holder makes the official clients connect to it ({@link ClientNudge}).
 * The balancing ({@link PlacementBalancer}) hands over the same way, naming the server invited to take over; and a
 * server at its share declines a destination without holder ({@link ClaimGate}) and looks again later.
 * The note names the node by its creation zxid, so a note left by an earlier handover never shortens the wait after
 * a later holder crashed; fencing below is unchanged.
 *
 * <h2>Fencing</h2>
 * Canal keeps serving while its ZooKeeper session is in doubt, so after a network partition two servers can
 * deliver the same destination. Here the registry calls {@link #fence()} when Curator's SUSPENDED lasts longer
 * than the {@link FencingDelay} G = min(T/3, D/2), or than 2T/3 after the last request ZooKeeper answered was
 * sent if that comes sooner ({@link SessionProbe}; at once on LOST or on a reconnection with a new session), which
 * stops the instance (parser, sink, store: no more dumping, no more gets), and {@link #rejoin()} on RECONNECTED,
 * which re-reads the running node and competes again; a connection back within G in the same session (a
 * ZooKeeper restart, an ensemble's leader election) never stops the instance, as the node is still this server's.
 * Why the instance is stopped before any other server can start it, with T the negotiated session timeout, D the
 * other servers' takeover delay and t0 the moment the network between this server and ZooKeeper fails:
 * <ol>
 * <li>Another server starts the instance only after creating the running node, so only after the ensemble
 *     deleted this server's node by expiring its session: at least T after the ensemble last heard from this
 *     server. Its client sends something at least every T/3, so that was after t0 - T/3: the node goes no
 *     sooner than t0 + 2T/3, and the other server starts no sooner than t0 + 2T/3 + D.</li>
 * <li>This server's client declares the connection lost when it has heard nothing for 2T/3 (ZooKeeper's read
 *     timeout), so by t0 + 2T/3 (at once when the TCP connection breaks visibly). Curator reports SUSPENDED;
 *     G later {@code fence()} stops the instance without waiting for any ZooKeeper call or a lock held across
 *     one.</li>
 * <li>So the stop has at least D - G &ge; D/2 (2.5 s by default), typically T/3 + D - G, to finish before anyone
 *     else can start; the instance stop takes far less (its store wakes and fails every waiting get at once).
 *     Independently of the ping schedule: the session lives at least T past the sending of the last request
 *     ZooKeeper answered, and the fence comes no later than 2T/3 past it, leaving T/3 + D.</li>
 * </ol>
 * The margin does not depend on T, so any session timeout is safe; T only sets how long a dead server holds its
 * destinations (failover time about T + D) and how long a pause of this process (GC, SIGSTOP) may last before
 * its session expires; after such a pause the probe's bound has passed, so the fence follows the suspension at
 * once. Not covered: a pause that ends with a get already past the store's check answering before the ZooKeeper
 * client thread has noticed anything; and no bound is enforced on
 * how long the listener's stop takes. An instance whose start is in progress when the connection is lost is
 * stopped right after its start completes.
 *
 * <p>Thread safety: election state is guarded by this monitor and changed only on the registry's election
 * thread or a caller's thread; the instance state is guarded by {@code instanceLock}, which is never held
 * across a ZooKeeper call, so fencing never waits for ZooKeeper.
 */
public final class ServerRunningMonitor {

    private static final Logger log = LoggerFactory.getLogger(ServerRunningMonitor.class);
    private static final String MDC_DESTINATION = "destination";

    private final String destination;
    private final String address;
    private final CuratorFramework zk;
    private final ServerRunningListener listener;
    private final ScheduledExecutorService electionThread;
    private final Duration takeoverDelay;
    private final String runningPath;
    private final Watcher runningWatcher = this::onRunningEvent;
    private final ConsumerRunningNodes consumerNodes;
    private final ClaimGate gate;

    // guarded by this
    private boolean started;
    /** This server created the current or last running node and has not released it. */
    private boolean heldByMe;
    /** This server gave the destination up voluntarily and has not held it since. */
    private boolean releasedByMe;
    private ServerRunningData activeData;
    /** The creation zxid of the running node this server last created or saw; 0 before any. */
    private long runningNode;
    private ScheduledFuture<?> pendingTakeover;

    private final Object instanceLock = new Object();
    // guarded by instanceLock
    private boolean instanceRunning;
    /** When the instance last started here (System.nanoTime). */
    private long activeSinceNanos;
    private volatile boolean connected;

    ServerRunningMonitor(String destination, String address, CuratorFramework zk, ServerRunningListener listener,
            ScheduledExecutorService electionThread, Duration takeoverDelay, ClaimGate gate) {
        this.destination = destination;
        this.address = address;
        this.zk = zk;
        this.listener = listener;
        this.electionThread = electionThread;
        this.takeoverDelay = takeoverDelay;
        this.runningPath = ClusterPaths.running(destination);
        this.connected = zk.getZookeeperClient().isConnected();
        this.consumerNodes = new ConsumerRunningNodes(destination, address, zk, electionThread);
        this.gate = gate;
    }

    public String destination() {
        return destination;
    }

    /** Competes for the destination; the instance starts here if this server wins. No-op when started. */
    public synchronized void start() {
        if (started) {
            return;
        }
        started = true;
        withDestination(() -> initRunning(false));
    }

    /** Releases the destination if this server holds it and leaves the destination's cluster. */
    public synchronized void stop() {
        withDestination(() -> {
            release();
            started = false;
            cancelPendingTakeover();
            deleteQuietly(ClusterPaths.destinationServerNode(destination, address));
        });
    }

    public synchronized boolean isStart() {
        return started;
    }

    /**
     * Gives the destination up (Canal's admin "release") as a handover to any standby: stops the instance, notes
     * the handover and deletes the running node if this server holds it. The monitor stays started and competes
     * again, but after twice the takeover delay, so a standby gets the destination. (Canal's releasing server
     * retries at once and usually takes the destination straight back; here release hands over.) Clients' batches
     * not acked yet are delivered again by the next server; {@link #handOver} waits for them first.
     *
     * @return whether this server held the destination
     */
    public synchronized boolean release() {
        return giveUp(null);
    }

    /**
     * Hands the destination over: waits up to {@code ackWait} for its clients to ack what they hold (no new batch
     * is handed out meanwhile), then gives it up as {@link #release} does.
     *
     * @return whether this server held the destination
     */
    public boolean handOver(Duration ackWait) {
        return handOver(ackWait, null);
    }

    /** As {@link #handOver(Duration)}, inviting only the server at {@code to} (any when null) to take over at once. */
    boolean handOver(Duration ackWait, String to) {
        if (!isActive()) {
            return false;
        }
        Set<String> unacked = listener.quiesce(Set.of(destination), ackWait); // outside the lock: elections go on
        if (!unacked.isEmpty()) {
            log.warn("destination {}: its clients still held batches after {} ms; the next server delivers them again",
                    destination, ackWait.toMillis());
        }
        synchronized (this) {
            return giveUp(to);
        }
    }

    private boolean giveUp(String to) {
        if (!heldByMe) {
            return false;
        }
        heldByMe = false;
        releasedByMe = true;
        stopInstance(); // pushes the cursors
        noteHandover(to);
        deleteRunningIfMine();
        log.info("destination {}: handed over by {}{}", destination, address, to == null ? "" : " to " + to);
        return true;
    }

    /** Whether the instance runs here because this server holds the running node. */
    public boolean isActive() {
        synchronized (instanceLock) {
            return instanceRunning;
        }
    }

    /** How long the instance has run here, in nanoseconds; -1 when it does not run here. */
    long activeForNanos() {
        synchronized (instanceLock) {
            return instanceRunning ? System.nanoTime() - activeSinceNanos : -1;
        }
    }

    /** The holder last seen in the running node (this server's own data while active), null before any. */
    public synchronized ServerRunningData activeData() {
        return activeData;
    }

    /** The ZooKeeper connection is in doubt: stop serving now, before any other server can take over. */
    void fence() {
        connected = false;
        synchronized (instanceLock) {
            if (instanceRunning) {
                log.warn("destination {}: ZooKeeper connection suspended, stopping the instance (fencing)",
                        destination);
            }
        }
        stopInstance();
    }

    /** The connection is back (same or new session): register again and compete again. */
    void rejoin() {
        connected = true;
        onElectionThread(() -> {
            registerClusterNode();
            if (started) {
                observeRunning();
            }
        });
    }

    // ---- election, all under this monitor's lock

    /** Competes for the destination; {@code handedOver}: the last holder handed it over (its clients follow). */
    private void initRunning(boolean handedOver) {
        if (!started || !connected) {
            return; // rejoin() will compete when the connection is back
        }
        cancelPendingTakeover();
        if (!heldByMe && !gate.mayClaim()) {
            log.debug("destination {}: {} runs its share, looking again in {} ms", destination, address,
                    gate.recheck().toMillis());
            scheduleClaim(gate.recheck().toMillis());
            watchCreation(); // a server below its share takes it meanwhile
            return;
        }
        // a server that handed the destination over keeps its clients, answered with empty batches, until they are
        // told to move: also when this server claims it later than at once (after declining it, or a delay)
        boolean afterHandover = handedOver || readHandoverNote().isPresent();
        ServerRunningData mine = ServerRunningData.activeAt(address);
        Stat created = new Stat();
        try {
            zk.create().storingStatIn(created).creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
                    .forPath(runningPath, mine.toJson());
        } catch (KeeperException.NodeExistsException held) {
            observeRunning();
            return;
        } catch (Exception e) {
            log.warn("destination {}: cannot create {} ({}); competing again when ZooKeeper is back",
                    destination, runningPath, e.toString());
            return;
        }
        heldByMe = true;
        releasedByMe = false;
        activeData = mine;
        runningNode = created.getCzxid();
        log.info("destination {}: {} is active", destination, address);
        deleteQuietly(ClusterPaths.handover(destination)); // the last holder's note, if any, is spent
        watchRunning();
        startInstance();
        if (afterHandover && isActive()) {
            onElectionThread(() -> ClientNudge.nudge(zk, destination, listener)); // after the consumers' nodes (docs/consumers.md)
        }
    }

    /** Reads the running node with a watch and follows it: start if it is mine, stand by if it is not. */
    private void observeRunning() {
        Stat stat = new Stat();
        byte[] data;
        try {
            data = zk.getData().storingStatIn(stat).usingWatcher(runningWatcher).forPath(runningPath);
        } catch (KeeperException.NoNodeException gone) {
            onRunningGone();
            return;
        } catch (Exception e) {
            log.warn("destination {}: cannot read {} ({}); competing again when ZooKeeper is back",
                    destination, runningPath, e.toString());
            return;
        }
        ServerRunningData holder = ServerRunningData.fromJson(data);
        activeData = holder;
        runningNode = stat.getCzxid();
        if (stat.getEphemeralOwner() == sessionId()) {
            heldByMe = true;
            if (holder.active()) {
                startInstance(); // e.g. reconnected within the session: nobody could have taken over
            } else {
                release(); // Canal's way to ask the holder to let go
            }
        } else {
            heldByMe = false;
            releasedByMe = false;
            cancelPendingTakeover();
            stopInstance();
            log.info("destination {}: standby, {} is active", destination, holder.address());
            listener.standingBy(destination);
        }
    }

    private void onRunningGone() {
        if (heldByMe) {
            log.info("destination {}: lost the running node without releasing it, retrying at once", destination);
            initRunning(false);
            return;
        }
        Optional<HandoverNote> note = readHandoverNote();
        if (note.isPresent() && note.get().invites(address, runningNode)) {
            log.info("destination {}: {} handed it over, competing at once", destination, note.get().from());
            initRunning(true);
        } else {
            scheduleTakeover();
            watchCreation();
        }
    }

    /** The note of a handover of this destination, if there is one (and it reads as one). */
    private Optional<HandoverNote> readHandoverNote() {
        try {
            return HandoverNote.fromJson(zk.getData().forPath(ClusterPaths.handover(destination)));
        } catch (KeeperException.NoNodeException none) {
            return Optional.empty();
        } catch (Exception e) {
            log.warn("destination {}: cannot read {} ({})", destination, ClusterPaths.handover(destination),
                    e.toString());
            return Optional.empty();
        }
    }

    /**
     * Tells the standbys, before the running node goes, that this server gave it up on purpose. Ephemeral: it goes
     * with this server's session, and the next holder deletes it.
     */
    private void noteHandover(String to) {
        if (!connected || runningNode == 0) {
            return;
        }
        String path = ClusterPaths.handover(destination);
        byte[] note = new HandoverNote(runningNode, address, to).toJson();
        try {
            try {
                zk.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path, note);
            } catch (KeeperException.NodeExistsException left) {
                zk.setData().forPath(path, note); // an older note nobody deleted: it names an older node
            }
        } catch (Exception e) {
            log.warn("destination {}: cannot write {} ({}); the standbys take over after their delay", destination,
                    path, e.toString());
        }
    }

    /** Learns of a new holder at once, so a standby follows it and drops its own pending attempt. */
    private void watchCreation() {
        try {
            if (zk.checkExists().usingWatcher(runningWatcher).forPath(runningPath) != null) {
                observeRunning();
            }
        } catch (Exception e) {
            log.warn("destination {}: cannot watch {} ({})", destination, runningPath, e.toString());
        }
    }

    private void scheduleTakeover() {
        if (pendingTakeover != null && !pendingTakeover.isDone()) {
            return;
        }
        long delayMillis = releasedByMe ? 2 * takeoverDelay.toMillis() : takeoverDelay.toMillis();
        log.info("destination {}: no active server, competing in {} ms", destination, delayMillis);
        scheduleClaim(delayMillis);
    }

    private void scheduleClaim(long delayMillis) {
        pendingTakeover = electionThread.schedule(() -> electionStep(() -> initRunning(false)), delayMillis,
                TimeUnit.MILLISECONDS);
    }

    private void cancelPendingTakeover() {
        if (pendingTakeover != null) {
            pendingTakeover.cancel(false);
            pendingTakeover = null;
        }
    }

    /** ZooKeeper's event thread: hand the event to the election thread. */
    private void onRunningEvent(WatchedEvent event) {
        if (event.getType() == Watcher.Event.EventType.None) {
            return; // connection state: handled through the registry's Curator listener
        }
        onElectionThread(() -> {
            if (started && connected) {
                observeRunning();
            }
        });
    }

    private void onElectionThread(Runnable step) {
        try {
            electionThread.execute(() -> electionStep(step));
        } catch (RejectedExecutionException stopping) {
            log.debug("destination {}: election stopped, event ignored", destination);
        }
    }

    /** One step on the election thread, under the monitor's lock; a failure is logged, the next event retries. */
    private void electionStep(Runnable step) {
        synchronized (this) {
            withDestination(() -> {
                try {
                    step.run();
                } catch (RuntimeException e) {
                    log.error("destination {}: election step failed", destination, e);
                }
            });
        }
    }

    private void watchRunning() {
        try {
            if (zk.checkExists().usingWatcher(runningWatcher).forPath(runningPath) == null) {
                onRunningGone();
            }
        } catch (Exception e) {
            log.warn("destination {}: cannot watch {} ({})", destination, runningPath, e.toString());
        }
    }

    private void deleteRunningIfMine() {
        if (!connected) {
            return; // ephemeral: it goes with the session, and waiting for ZooKeeper here would only delay a stop
        }
        try {
            Stat stat = zk.checkExists().forPath(runningPath);
            if (stat != null && stat.getEphemeralOwner() == sessionId()) {
                zk.delete().withVersion(stat.getVersion()).forPath(runningPath);
            }
        } catch (KeeperException.NoNodeException | KeeperException.BadVersionException changed) {
            // gone or rewritten meanwhile: not ours to delete any more
        } catch (Exception e) {
            // the node is ephemeral: it goes with the session if ZooKeeper cannot be told now
            log.warn("destination {}: cannot delete {} ({})", destination, runningPath, e.toString());
        }
    }

    /** Registers this server under the destination's cluster node (on creation and on each new session). */
    void registerClusterNode() {
        String path = ClusterPaths.destinationServerNode(destination, address);
        try {
            ServerRegistration.register(zk, path);
        } catch (Exception e) {
            log.warn("destination {}: cannot register {} ({})", destination, path, e.toString());
        }
    }

    private void deleteQuietly(String path) {
        if (!connected) {
            return; // ephemeral, as above
        }
        try {
            zk.delete().forPath(path);
        } catch (KeeperException.NoNodeException gone) {
            // nothing to unregister
        } catch (Exception e) {
            log.warn("destination {}: cannot delete {} ({})", destination, path, e.toString());
        }
    }

    private long sessionId() {
        try {
            return zk.getZookeeperClient().getZooKeeper().getSessionId();
        } catch (Exception e) {
            throw new IllegalStateException("no ZooKeeper session for destination " + destination, e);
        }
    }

    // ---- the instance, under instanceLock only

    private void startInstance() {
        RuntimeException failure;
        synchronized (instanceLock) {
            if (instanceRunning || !connected) {
                return; // not connected: fenced meanwhile, rejoin() decides again
            }
            try {
                listener.activeEnter(destination);
                instanceRunning = true;
                activeSinceNanos = System.nanoTime();
                consumerNodes.publish(ServerRunningData.activeAt(address).toJson()); // docs/consumers.md
                return;
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        log.error("destination {}: starting the instance failed, releasing it to the other servers", destination,
                failure);
        heldByMe = false;
        deleteRunningIfMine();
        throw failure;
    }

    private void stopInstance() {
        synchronized (instanceLock) {
            if (!instanceRunning) {
                return;
            }
            instanceRunning = false;
            consumerNodes.withdraw();
            try {
                listener.activeExit(destination);
            } catch (RuntimeException e) {
                log.error("destination {}: stopping the instance failed", destination, e);
            }
        }
    }

    private void withDestination(Runnable action) {
        MDC.put(MDC_DESTINATION, destination);
        try {
            action.run();
        } finally {
            MDC.remove(MDC_DESTINATION);
        }
    }
}
