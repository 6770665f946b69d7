package dev.canal.server.ha;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this server within its share of the destinations (docs/high-availability.md, "Spreading destinations over
 * servers"). The share is this server's weight's part of the destinations among the live servers
 * ({@code /otter/canal/cluster} children, each with its weight), rounded up, plus the slack: with equal weights, the
 * number of destinations over the number of live servers. As a {@link ClaimGate} it lets this server take a
 * destination without holder only while it runs fewer than its share, so the destinations of a dead server spread
 * over the survivors. Every interval, a server over its share hands one destination (run here at least the minimum
 * stay) over with the graceful handover, inviting the live server running the fewest for its share, and waits until
 * another server holds it: one move at a time, so a server that comes and goes causes no more than one move per
 * interval.
 */
final class PlacementBalancer implements ClaimGate, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PlacementBalancer.class);
    /** How long a move may take before the balancer stops waiting for another server to hold the destination. */
    private static final Duration MOVE_WAIT = Duration.ofSeconds(30);
    private static final long MOVE_POLL_MILLIS = 20;

    private final CuratorFramework zk;
    private final String address;
    private final PlacementConfig config;
    private final Duration ackTimeout;
    private final Supplier<Collection<ServerRunningMonitor>> monitors;
    private final PlacementMetrics metrics;
    private final ScheduledExecutorService pace;

    PlacementBalancer(CuratorFramework zk, String address, PlacementConfig config, Duration ackTimeout,
            Supplier<Collection<ServerRunningMonitor>> monitors, PlacementMetrics metrics) {
        this.zk = zk;
        this.address = address;
        this.config = config;
        this.ackTimeout = ackTimeout;
        this.monitors = monitors;
        this.metrics = metrics;
        this.pace = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "canal-server-placement");
            thread.setDaemon(true);
            return thread;
        });
        long every = config.interval().toMillis();
        pace.scheduleWithFixedDelay(this::balanceOnce, every, every, TimeUnit.MILLISECONDS);
        log.info("placement: {} keeps to its share of the destinations (weight {}, slack {}, one move per {} ms, "
                + "minimum stay {} ms)", address, config.weight(), config.slack(), every, config.minStay().toMillis());
    }

    @Override
    public boolean mayClaim() {
        return Placement.mayClaim(metrics.running(), share());
    }

    @Override
    public Duration recheck() {
        return config.interval();
    }

    private int share() {
        return share(monitors.get().size(), liveServers());
    }

    /** This server's share of {@code destinations} among the live servers, by their weights. */
    private int share(int destinations, Map<String, Integer> servers) {
        return Placement.share(destinations, config.weight(), totalWeight(servers), config.slack());
    }

    /** The weights of the live servers added up; this one's too when it is not registered yet (it counts itself). */
    private int totalWeight(Map<String, Integer> servers) {
        int total = servers.values().stream().mapToInt(Integer::intValue).sum();
        return servers.containsKey(address) ? total : total + config.weight();
    }

    /**
     * The registered servers and their weights; none when ZooKeeper cannot be read (this one then claims as Canal
     * does). A server that left between the listing and the read of its weight is left out.
     */
    private Map<String, Integer> liveServers() {
        List<String> names;
        try {
            names = zk.getChildren().forPath(ClusterPaths.CLUSTER);
        } catch (Exception e) {
            log.debug("placement: cannot list {} ({})", ClusterPaths.CLUSTER, e.toString());
            return Map.of();
        }
        Map<String, Integer> weights = new HashMap<>();
        for (String name : names) {
            try {
                weights.put(name, ServerWeight.decode(zk.getData().forPath(ClusterPaths.serverNode(name))));
            } catch (KeeperException.NoNodeException gone) {
                // left meanwhile
            } catch (Exception e) {
                log.debug("placement: cannot read the weight of {} ({})", name, e.toString());
                weights.put(name, ServerWeight.DEFAULT);
            }
        }
        return weights;
    }

    /** One step of the pace thread: at most one move. A failure is logged; the next step tries again. */
    private void balanceOnce() {
        try {
            Map<String, Integer> servers = liveServers();
            Collection<ServerRunningMonitor> all = monitors.get();
            int share = share(all.size(), servers);
            Map<String, Long> movable = new HashMap<>();
            int running = 0;
            long minStayNanos = config.minStay().toNanos();
            for (ServerRunningMonitor monitor : all) {
                long activeFor = monitor.activeForNanos();
                if (activeFor >= 0) {
                    running++;
                    if (activeFor >= minStayNanos) {
                        movable.put(monitor.destination(), activeFor);
                    }
                }
            }
            if (running <= share) {
                return;
            }
            Optional<Placement.Move> move = Placement.nextMove(address, running, share, movable,
                    loads(servers, all));
            if (move.isPresent()) {
                perform(move.get(), running, share, servers.size());
            }
        } catch (RuntimeException e) {
            log.warn("placement: balancing step failed", e);
        }
    }

    /** How many destinations each live server holds, read from the running nodes, and its share. */
    private Map<String, Placement.Load> loads(Map<String, Integer> servers, Collection<ServerRunningMonitor> all) {
        Map<String, Integer> running = new HashMap<>();
        servers.keySet().forEach(server -> running.put(server, 0));
        for (ServerRunningMonitor monitor : all) {
            holder(monitor.destination()).filter(running::containsKey)
                    .ifPresent(h -> running.merge(h, 1, Integer::sum));
        }
        int total = totalWeight(servers);
        Map<String, Placement.Load> loads = new HashMap<>();
        servers.forEach((server, weight) -> loads.put(server, new Placement.Load(running.get(server),
                Placement.share(all.size(), weight, total, config.slack()))));
        return loads;
    }

    private Optional<String> holder(String destination) {
        try {
            return Optional.of(ServerRunningData.fromJson(zk.getData().forPath(ClusterPaths.running(destination)))
                    .address());
        } catch (KeeperException.NoNodeException none) {
            return Optional.empty();
        } catch (Exception e) {
            log.debug("placement: cannot read the holder of {} ({})", destination, e.toString());
            return Optional.empty();
        }
    }

    private void perform(Placement.Move move, int running, int share, int servers) {
        ServerRunningMonitor monitor = monitors.get().stream().filter(m -> m.destination().equals(move.destination()))
                .findFirst().orElse(null);
        if (monitor == null) {
            return;
        }
        String reason = "over share";
        log.info("placement: moving {} from {} to {} ({}: runs {}, share {} of {} servers)", move.destination(),
                address, move.to(), reason, running, share, servers);
        long started = System.nanoTime();
        if (!monitor.handOver(ackTimeout, move.to())) {
            return;
        }
        Optional<String> taker = awaitNewHolder(move.destination());
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        metrics.recordMove(reason, millis);
        log.info("placement: moved {} from {} to {} in {} ms ({})", move.destination(), address,
                taker.orElse("nobody yet"), millis, reason);
    }

    /** Waits, bounded, until a server other than this one holds the destination; empty when none did in time. */
    private Optional<String> awaitNewHolder(String destination) {
        long deadline = System.nanoTime() + MOVE_WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<String> holder = holder(destination);
            if (holder.isPresent() && !holder.get().equals(address)) {
                return holder;
            }
            try {
                Thread.sleep(MOVE_POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** Stops balancing; a move in progress finishes its handover. */
    @Override
    public void close() {
        pace.shutdownNow();
        try {
            pace.awaitTermination(ackTimeout.toMillis() + 5_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
