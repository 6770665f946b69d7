package dev.canal.server.ha;

import dev.canal.meta.ZooKeeperPaths;
import dev.canal.protocol.ConsumerName;
import dev.canal.protocol.DestinationNameRule;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the official cluster clients of a destination that was just handed over to this server connect to it at
 * once. Such a client is still connected to the server that gave the destination up, which answers its gets with
 * nothing and no error, so the client has no reason to move; but it holds its own ephemeral election node,
 * {@code /otter/canal/destinations/{dest}/{clientId}/running} (Canal's client-side HA), and when that node is deleted
 * by someone else the active client drops its connection and connects again straight away, to the server the
 * destination's running node names (docs/high-availability.md, "Stopping a server"). So this deletes those nodes, for
 * the destination and each of its named consumers, once the instance runs here.
 */
final class ClientNudge {

    private static final Logger log = LoggerFactory.getLogger(ClientNudge.class);

    private ClientNudge() {
    }

    /**
     * Deletes the running node of every subscribed client of the destination and its consumers; logs how many. Each
     * client is announced to {@code listener} first: it reconnects while its application goes on polling, and must
     * not be handed a batch before its rollback on connecting (docs/high-availability.md, "Stopping a server").
     */
    static void nudge(CuratorFramework zk, String destination, ServerRunningListener listener) {
        int nudged = 0;
        for (String name : subscribedNames(zk, destination)) {
            for (String clientId : children(zk, ZooKeeperPaths.destination(name))) {
                String path = ZooKeeperPaths.destination(name) + "/" + clientId + "/running";
                if (isClientId(clientId) && exists(zk, path)) {
                    listener.clientReconnecting(name, Short.parseShort(clientId));
                    if (deleteIfPresent(zk, path)) {
                        nudged++;
                    }
                }
            }
        }
        if (nudged > 0) {
            log.info("destination {}: told {} official client(s) to connect to this server", destination, nudged);
        }
    }

    /** The destination and the well-formed {@code destination@consumer} names beside it. */
    private static List<String> subscribedNames(CuratorFramework zk, String destination) {
        List<String> names = new ArrayList<>();
        names.add(destination);
        for (String child : children(zk, ZooKeeperPaths.DESTINATIONS)) {
            if (!child.equals(destination) && ConsumerName.belongsTo(child, destination)
                    && DestinationNameRule.isWellFormedSubscription(child)) {
                names.add(child);
            }
        }
        return names;
    }

    /** A client id as Canal names its node: a short, in decimal. */
    private static boolean isClientId(String child) {
        if (child.isEmpty() || child.length() > 6) {
            return false;
        }
        try {
            Short.parseShort(child);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static List<String> children(CuratorFramework zk, String path) {
        try {
            return zk.getChildren().forPath(path);
        } catch (KeeperException.NoNodeException none) {
            return List.of();
        } catch (Exception e) {
            log.warn("cannot list {} ({}); its clients reconnect on their own", path, e.toString());
            return List.of();
        }
    }

    private static boolean exists(CuratorFramework zk, String path) {
        try {
            return zk.checkExists().forPath(path) != null;
        } catch (Exception e) {
            log.warn("cannot read {} ({}); that client reconnects on its own", path, e.toString());
            return false;
        }
    }

    private static boolean deleteIfPresent(CuratorFramework zk, String path) {
        try {
            zk.delete().forPath(path);
            return true;
        } catch (KeeperException.NoNodeException none) {
            return false; // no client of this id connected
        } catch (Exception e) {
            log.warn("cannot delete {} ({}); that client reconnects on its own", path, e.toString());
            return false;
        }
    }
}
