package dev.canal.server.ha;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * Registers this server's ephemeral {@code ip:port} nodes. A node of the same name left
 * by an earlier session (this server killed and restarted before that session expired) is replaced: its
 * name is this server's address, and keeping it would let the registration vanish when the old session
 * expires. (Canal ignores the existing node and loses the registration that way.)
 */
final class ServerRegistration {

    private ServerRegistration() {
    }

    /** Registers a node without data, as Canal does. */
    static void register(CuratorFramework zk, String path) throws Exception {
        register(zk, path, new byte[0]);
    }

    static void register(CuratorFramework zk, String path, byte[] data) throws Exception {
        try {
            zk.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path, data);
        } catch (KeeperException.NodeExistsException exists) {
            Stat stat = zk.checkExists().forPath(path);
            if (stat != null && stat.getEphemeralOwner() != zk.getZookeeperClient().getZooKeeper().getSessionId()) {
                zk.delete().withVersion(stat.getVersion()).forPath(path);
                zk.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path, data);
            }
        }
    }
}
