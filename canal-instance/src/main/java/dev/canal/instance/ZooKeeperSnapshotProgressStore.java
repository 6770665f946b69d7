package dev.canal.instance;

import dev.canal.meta.ZooKeeperPaths;
import dev.canal.parse.snapshot.SnapshotProgressStore;
import java.nio.charset.StandardCharsets;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * The snapshot progress in the ZooKeeper node {@code /otter/canal/destinations/{destination}/snapshot}, beside the
 * clients' cursors, so the server that takes a destination over resumes its snapshots (docs/snapshots.md).
 */
public final class ZooKeeperSnapshotProgressStore implements SnapshotProgressStore {

    private final CuratorFramework zk;
    private final String path;

    public ZooKeeperSnapshotProgressStore(CuratorFramework zk, String destination) {
        this.zk = zk;
        this.path = ZooKeeperPaths.destination(destination) + "/snapshot";
    }

    @Override
    public String load() {
        try {
            return new String(zk.getData().forPath(path), StandardCharsets.UTF_8);
        } catch (KeeperException.NoNodeException e) {
            return null;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the snapshot progress " + path + " from ZooKeeper", e);
        }
    }

    @Override
    public void save(String progress) {
        byte[] bytes = progress.getBytes(StandardCharsets.UTF_8);
        try {
            if (zk.checkExists().forPath(path) == null) {
                zk.create().creatingParentsIfNeeded().forPath(path, bytes);
            } else {
                zk.setData().forPath(path, bytes);
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot write the snapshot progress " + path + " to ZooKeeper", e);
        }
    }
}
