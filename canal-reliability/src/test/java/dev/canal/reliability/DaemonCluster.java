package dev.canal.reliability;

import dev.canal.testsupport.ZooKeeperServer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;

/**
 * Packaged daemons electing through one real ZooKeeper (curator-test's server in this JVM), as a cluster of servers
 * is run (docs/high-availability.md): cursors in ZooKeeper (default-instance.xml), each registered at 127.0.0.1 and
 * its own port. Closing stops every member with bin/stop.sh, then ZooKeeper.
 */
final class DaemonCluster implements AutoCloseable {

    private static final Pattern PORT = Pattern.compile(":(\\d+)\"");

    private final ZooKeeperServer zooKeeper;
    private final CuratorFramework observer;
    private final List<CanalDaemon> members = new ArrayList<>();

    private DaemonCluster(ZooKeeperServer zooKeeper) {
        this.zooKeeper = zooKeeper;
        this.observer = CuratorFrameworkFactory.newClient(zooKeeper.connectString(), new RetryOneTime(100));
        this.observer.start();
    }

    static DaemonCluster start() throws Exception {
        return new DaemonCluster(ZooKeeperServer.start());
    }

    String zkServers() {
        return zooKeeper.connectString();
    }

    /** Makes an unpacked daemon a member: ZooKeeper, its register address, cursors in ZooKeeper pushed every 100 ms. */
    CanalDaemon join(CanalDaemon daemon) throws Exception {
        daemon.set("conf/canal.properties", "canal.zkServers", zooKeeper.connectString());
        daemon.set("conf/canal.properties", "canal.register.ip", "127.0.0.1");
        daemon.set("conf/canal.properties", "canal.zookeeper.flush.period", "100");
        daemon.set("conf/canal.properties", "canal.instance.global.spring.xml", "classpath:spring/default-instance.xml");
        members.add(daemon);
        return daemon;
    }

    /** The port of the member holding the destination's running node, if any. */
    Optional<Integer> runningPort(String destination) throws Exception {
        String running = data("/otter/canal/destinations/" + destination + "/running");
        Matcher port = PORT.matcher(running == null ? "" : running);
        return port.find() ? Optional.of(Integer.parseInt(port.group(1))) : Optional.empty();
    }

    /** How many of the destinations each member's port holds now; destinations without holder are not counted. */
    Map<Integer, Integer> spread(Collection<String> destinations) throws Exception {
        Map<Integer, Integer> spread = new TreeMap<>();
        for (String destination : destinations) {
            runningPort(destination).ifPresent(port -> spread.merge(port, 1, Integer::sum));
        }
        return spread;
    }

    /** The member holding the destination. */
    CanalDaemon holder(String destination) throws Exception {
        int port = runningPort(destination).orElseThrow(() -> new IllegalStateException(destination
                + " has no running node"));
        return members.stream().filter(m -> m.port == port).findFirst().orElseThrow();
    }

    /** The text of a ZooKeeper node, null when there is none. */
    String data(String path) throws Exception {
        try {
            return new String(observer.getData().forPath(path), StandardCharsets.UTF_8);
        } catch (KeeperException.NoNodeException none) {
            return null;
        }
    }

    @Override
    public void close() throws Exception {
        for (CanalDaemon member : members) {
            member.stop();
        }
        observer.close();
        zooKeeper.close();
    }
}
