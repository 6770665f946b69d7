package dev.canal.server.ha;

import dev.canal.meta.ZooKeeperPaths;
import dev.canal.protocol.ConsumerName;
import dev.canal.protocol.DestinationNameRule;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * While this server is active for a destination, mirrors its running node and cluster registration under each
 * named consumer of it ({@code /otter/canal/destinations/example@billing/running} and {@code …/cluster/ip:port},
 * docs/consumers.md), so that the official cluster connector subscribed to {@code example@billing} finds the
 * active server of {@code example} and follows it on failover. The consumers are the children of
 * {@code /otter/canal/destinations} named {@code example@…}, watched while active: a consumer's meta subscription
 * creates its node, and so does its cluster client's own election node. The election itself is only ever held on
 * the destination. A child whose name is no valid consumer name is left alone. Every ZooKeeper call runs on the
 * election thread; a failure is logged and retried on the next change.
 */
final class ConsumerRunningNodes {

    private static final Logger log = LoggerFactory.getLogger(ConsumerRunningNodes.class);

    private final String destination;
    private final String address;
    private final CuratorFramework zk;
    private final ScheduledExecutorService electionThread;
    private final Watcher childrenWatcher = this::onChildren;
    private final Set<String> mirrored = ConcurrentHashMap.newKeySet();
    private volatile byte[] runningData; // non-null while active

    ConsumerRunningNodes(String destination, String address, CuratorFramework zk,
            ScheduledExecutorService electionThread) {
        this.destination = destination;
        this.address = address;
        this.zk = zk;
        this.electionThread = electionThread;
    }

    /** This server became active: mirror its running data under every consumer, now and as consumers appear. */
    void publish(byte[] data) {
        runningData = data;
        onElectionThread(this::mirrorAll);
    }

    /** This server stopped being active: the mirrored running nodes go (at once when connected, else with the session). */
    void withdraw() {
        runningData = null;
        onElectionThread(() -> {
            for (String consumer : List.copyOf(mirrored)) {
                deleteIfMine(ClusterPaths.running(consumer));
                mirrored.remove(consumer);
            }
        });
    }

    private void mirrorAll() {
        byte[] data = runningData;
        if (data == null) {
            return;
        }
        List<String> children;
        try {
            children = zk.getChildren().usingWatcher(childrenWatcher).forPath(ZooKeeperPaths.DESTINATIONS);
        } catch (Exception e) {
            log.warn("destination {}: cannot list consumers under {} ({})", destination, ZooKeeperPaths.DESTINATIONS,
                    e.toString());
            return;
        }
        for (String child : children) {
            if (!child.equals(destination) && ConsumerName.belongsTo(child, destination) && !mirrored.contains(child)
                    && DestinationNameRule.isWellFormedSubscription(child)) {
                mirror(child, data);
            }
        }
    }

    private void mirror(String consumer, byte[] data) {
        String running = ClusterPaths.running(consumer);
        try {
            ServerRegistration.register(zk, ClusterPaths.destinationServerNode(consumer, address));
            try {
                zk.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(running, data);
            } catch (KeeperException.NodeExistsException stale) {
                // left by the previous holder's session, which has not expired yet: this server holds the destination
                Stat stat = zk.checkExists().forPath(running);
                if (stat != null) {
                    zk.delete().withVersion(stat.getVersion()).forPath(running);
                }
                zk.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(running, data);
            }
            mirrored.add(consumer);
            log.info("destination {}: consumer {} finds this server at {}", destination, consumer, running);
        } catch (Exception e) {
            log.warn("destination {}: cannot mirror {} ({})", destination, running, e.toString());
        }
    }

    private void deleteIfMine(String path) {
        try {
            Stat stat = zk.checkExists().forPath(path);
            if (stat != null && stat.getEphemeralOwner() == zk.getZookeeperClient().getZooKeeper().getSessionId()) {
                zk.delete().withVersion(stat.getVersion()).forPath(path);
            }
        } catch (KeeperException.NoNodeException | KeeperException.BadVersionException gone) {
            // not ours any more
        } catch (Exception e) {
            log.warn("destination {}: cannot delete {} ({}); it goes with the session", destination, path,
                    e.toString());
        }
    }

    private void onChildren(WatchedEvent event) {
        if (event.getType() == Watcher.Event.EventType.NodeChildrenChanged) {
            onElectionThread(this::mirrorAll);
        }
    }

    private void onElectionThread(Runnable step) {
        try {
            electionThread.execute(() -> {
                try {
                    step.run();
                } catch (RuntimeException e) {
                    log.error("destination {}: mirroring consumer nodes failed", destination, e);
                }
            });
        } catch (RejectedExecutionException stopping) {
            log.debug("destination {}: election stopped, consumer nodes left to the session", destination);
        }
    }
}
