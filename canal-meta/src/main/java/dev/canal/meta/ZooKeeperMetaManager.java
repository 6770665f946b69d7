package dev.canal.meta;

import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.ConsumerName;
import dev.canal.protocol.DestinationNameRule;
import dev.canal.protocol.UntrustedText;
import dev.canal.protocol.position.LogPosition;
import dev.canal.protocol.position.PositionRange;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Subscriptions, cursors and batch marks kept directly in ZooKeeper under Canal's paths and JSON
 *, so that another server taking over a destination continues where this
 * one stopped. Cursor and marks carry {@code "@type"} as fastjson's WriteClassName writes them.
 *
 * <p>Batch ids come from ZooKeeper's persistent-sequential numbering, so the first id is 0
 *. The Curator client is owned by the caller, who starts and closes it; a chroot
 * given in the connect string applies to every path. Every call goes to ZooKeeper: this is the storage
 * behind {@link PeriodMixedMetaManager}, which is the flavour an instance normally uses.
 */
public final class ZooKeeperMetaManager implements MetaManager {

    private static final Logger log = LoggerFactory.getLogger(ZooKeeperMetaManager.class);
    private static final byte[] NO_DATA = new byte[0];

    private final CuratorFramework zk;
    private volatile boolean running;

    public ZooKeeperMetaManager(CuratorFramework zk) {
        this.zk = zk;
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isStart() {
        return running;
    }

    @Override
    public void subscribe(ClientIdentity client) {
        String path = ZooKeeperPaths.client(client.destination(), client.clientId());
        call("create", path, () -> {
            if (zk.checkExists().forPath(path) == null) {
                createPersistent(path, NO_DATA);
            }
            return null;
        });
        // as Canal: a blank filter leaves an earlier filter node in place
        if (client.hasFilter()) {
            write(ZooKeeperPaths.filter(client.destination(), client.clientId()),
                    client.filter().getBytes(StandardCharsets.UTF_8));
        }
    }

    @Override
    public boolean hasSubscribe(ClientIdentity client) {
        String path = ZooKeeperPaths.client(client.destination(), client.clientId());
        return call("check", path, () -> zk.checkExists().forPath(path) != null);
    }

    /** Deletes the client's node with its filter, cursor and marks. */
    @Override
    public void unsubscribe(ClientIdentity client) {
        String path = ZooKeeperPaths.client(client.destination(), client.clientId());
        call("delete", path, () -> {
            try {
                zk.delete().deletingChildrenIfNeeded().forPath(path);
            } catch (KeeperException.NoNodeException alreadyGone) {
                // nothing to delete: unsubscribing twice is harmless
            }
            return null;
        });
    }

    /** The numeric children of the destination node, by client id, with their filters. */
    @Override
    public List<ClientIdentity> listAllSubscribeInfo(String destination) {
        List<ClientIdentity> clients = new ArrayList<>();
        for (String child : children(ZooKeeperPaths.destination(destination))) {
            if (!isShortNumber(child)) {
                continue; // cluster, running, parse, ...
            }
            short clientId = Short.parseShort(child);
            byte[] filter = readOrNull(ZooKeeperPaths.filter(destination, clientId));
            clients.add(new ClientIdentity(destination, clientId,
                    filter == null ? "" : new String(filter, StandardCharsets.UTF_8)));
        }
        clients.sort(Comparator.comparingInt(ClientIdentity::clientId));
        return clients;
    }

    /**
     * The destination and its named consumers that have a subscription: the destination's node and each sibling
     * {@code destination@consumer} node with a client below it (docs/consumers.md).
     */
    @Override
    public List<String> listSubscribedNames(String destination) {
        List<String> names = new ArrayList<>();
        for (String child : children(ZooKeeperPaths.DESTINATIONS)) {
            if (!ConsumerName.belongsTo(child, destination)) {
                continue;
            }
            if (!DestinationNameRule.isWellFormedSubscription(child)) {
                log.warn("destination {}: skipping ZooKeeper node {} under {}, which is no valid consumer name",
                        destination, UntrustedText.quote(child), ZooKeeperPaths.DESTINATIONS);
                continue;
            }
            if (!listAllSubscribeInfo(child).isEmpty()) {
                names.add(child);
            }
        }
        Collections.sort(names);
        return names;
    }

    @Override
    public LogPosition getCursor(ClientIdentity client) {
        String path = ZooKeeperPaths.cursor(client.destination(), client.clientId());
        byte[] data = readOrNull(path);
        return data == null ? null : parseNode(path, data, MetaJson::readLogPosition);
    }

    @Override
    public void updateCursor(ClientIdentity client, LogPosition position) {
        write(ZooKeeperPaths.cursor(client.destination(), client.clientId()),
                MetaJson.toTypedJson(position).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public long addBatch(ClientIdentity client, PositionRange range) {
        String marks = ZooKeeperPaths.marks(client.destination(), client.clientId());
        String prefix = marks + "/"; // an empty name prefix: ZooKeeper names the node by its 10-digit counter
        byte[] data = MetaJson.toTypedJson(range).getBytes(StandardCharsets.UTF_8);
        String created = call("create sequential", prefix, () -> {
            try {
                return zk.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(prefix, data);
            } catch (KeeperException.NoNodeException firstMark) {
                // Curator cannot create the parents of a path ending in '/', so create them first
                createPersistent(marks, NO_DATA);
                return zk.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(prefix, data);
            }
        });
        return Long.parseLong(created.substring(created.lastIndexOf('/') + 1));
    }

    @Override
    public void addBatch(ClientIdentity client, PositionRange range, long batchId) {
        write(ZooKeeperPaths.mark(client.destination(), client.clientId(), batchId),
                MetaJson.toTypedJson(range).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public PositionRange getBatch(ClientIdentity client, long batchId) {
        String path = ZooKeeperPaths.mark(client.destination(), client.clientId(), batchId);
        byte[] data = readOrNull(path);
        return data == null ? null : parseNode(path, data, MetaJson::readPositionRange);
    }

    @Override
    public PositionRange removeBatch(ClientIdentity client, long batchId) {
        List<Long> ids = listBatchIds(client);
        if (!ids.contains(batchId)) {
            throw new UnknownBatchException(client, batchId);
        }
        if (ids.get(0) != batchId) {
            throw new MetaManagerException(String.format("batchId:%d is not the firstly:%d", batchId, ids.get(0)));
        }
        PositionRange range = getBatch(client, batchId);
        if (range == null) {
            throw new UnknownBatchException(client, batchId); // removed meanwhile by another manager
        }
        deleteIfExists(ZooKeeperPaths.mark(client.destination(), client.clientId(), batchId));
        return range;
    }

    @Override
    public Map<Long, PositionRange> listAllBatchs(ClientIdentity client) {
        Map<Long, PositionRange> batches = new LinkedHashMap<>();
        for (long id : listBatchIds(client)) {
            PositionRange range = getBatch(client, id);
            if (range != null) { // null: removed between listing and reading
                batches.put(id, range);
            }
        }
        return batches;
    }

    @Override
    public List<Long> listBatchIds(ClientIdentity client) {
        List<Long> ids = new ArrayList<>();
        for (String child : children(ZooKeeperPaths.marks(client.destination(), client.clientId()))) {
            if (isDigits(child)) {
                ids.add(Long.parseLong(child));
            }
        }
        Collections.sort(ids);
        return ids;
    }

    @Override
    public PositionRange getFirstBatch(ClientIdentity client) {
        List<Long> ids = listBatchIds(client);
        return ids.isEmpty() ? null : getBatch(client, ids.get(0));
    }

    @Override
    public PositionRange getLastestBatch(ClientIdentity client) {
        List<Long> ids = listBatchIds(client);
        return ids.isEmpty() ? null : getBatch(client, ids.get(ids.size() - 1));
    }

    @Override
    public void clearAllBatchs(ClientIdentity client) {
        for (long id : listBatchIds(client)) {
            deleteIfExists(ZooKeeperPaths.mark(client.destination(), client.clientId(), id));
        }
    }

    // ---- ZooKeeper access, every failure named with its path

    private interface ZooKeeperCall<T> {
        T run() throws Exception;
    }

    private static <T> T call(String operation, String path, ZooKeeperCall<T> body) {
        try {
            return body.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MetaManagerException("interrupted during ZooKeeper " + operation + " of " + path, e);
        } catch (MetaManagerException e) {
            throw e;
        } catch (Exception e) {
            throw new MetaManagerException("ZooKeeper " + operation + " of " + path + " failed: " + e, e);
        }
    }

    private void createPersistent(String path, byte[] data) throws Exception {
        try {
            zk.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT).forPath(path, data);
        } catch (KeeperException.NodeExistsException createdConcurrently) {
            // another server subscribed the same client at the same moment: the node is there as wanted
        }
    }

    private void write(String path, byte[] data) {
        call("write", path, () -> zk.create().orSetData().creatingParentsIfNeeded().forPath(path, data));
    }

    private byte[] readOrNull(String path) {
        return call("read", path, () -> {
            try {
                return zk.getData().forPath(path);
            } catch (KeeperException.NoNodeException absent) {
                return null;
            }
        });
    }

    private List<String> children(String path) {
        return call("list", path, () -> {
            try {
                return zk.getChildren().forPath(path);
            } catch (KeeperException.NoNodeException absent) {
                return List.<String>of();
            }
        });
    }

    private void deleteIfExists(String path) {
        call("delete", path, () -> {
            try {
                zk.delete().forPath(path);
            } catch (KeeperException.NoNodeException alreadyGone) {
                // deleted meanwhile: the outcome is the same
            }
            return null;
        });
    }

    private static <T> T parseNode(String path, byte[] data, Function<String, T> reader) {
        try {
            return reader.apply(new String(data, StandardCharsets.UTF_8));
        } catch (MetaManagerException e) {
            throw new MetaManagerException("invalid JSON in ZooKeeper node " + path + ": " + e.getMessage(), e);
        }
    }

    private static boolean isDigits(String text) {
        return !text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    private static boolean isShortNumber(String text) {
        return isDigits(text) && text.length() <= 5 && Integer.parseInt(text) <= Short.MAX_VALUE;
    }
}
