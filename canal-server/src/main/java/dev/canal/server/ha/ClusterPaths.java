package dev.canal.server.ha;

import dev.canal.meta.ZooKeeperPaths;

/** Canal's ZooKeeper paths for server registration and election. */
public final class ClusterPaths {

    /** Parent of one ephemeral node per running server, named {@code registerIp:port}. */
    public static final String CLUSTER = "/otter/canal/cluster";

    private ClusterPaths() {
    }

    public static String serverNode(String address) {
        return CLUSTER + "/" + address;
    }

    /** Parent of the servers that can serve the destination; the client falls back to these (docs/high-availability.md). */
    public static String destinationCluster(String destination) {
        return ZooKeeperPaths.destination(destination) + "/cluster";
    }

    public static String destinationServerNode(String destination, String address) {
        return destinationCluster(destination) + "/" + address;
    }

    /** Ours: ephemeral, written by a server that handed the destination over ({@link HandoverNote}). */
    public static String handover(String destination) {
        return ZooKeeperPaths.destination(destination) + "/handover";
    }

    /** The election node: ephemeral, held by the active server, ServerRunningData JSON. */
    public static String running(String destination) {
        return ZooKeeperPaths.destination(destination) + "/running";
    }
}
