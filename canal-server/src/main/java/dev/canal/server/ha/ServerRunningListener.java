package dev.canal.server.ha;

import dev.canal.server.CanalServer;
import java.time.Duration;
import java.util.Set;

/**
 * What a {@link ServerRunningMonitor} does when this node becomes active for a destination or stops being
 * it (Canal's ServerRunningListener): start and stop the embedded instance, and whatever the launcher runs
 * beside it (an MQ worker). Both are called with no ZooKeeper call in progress; {@code activeExit} is the
 * fencing step and must stop delivery before it returns.
 */
public interface ServerRunningListener {

    void activeEnter(String destination);

    void activeExit(String destination);

    /**
     * Before this server gives the destinations up on purpose (docs/high-availability.md, "Stopping a server"):
     * hand out nothing more of them and wait up to {@code wait} for their clients to ack what they hold.
     *
     * @return the destinations whose clients still held batches when the wait ended
     */
    Set<String> quiesce(Set<String> destinations, Duration wait);

    /**
     * Another server holds the destination and this one stands by: a chance to ready the destination's instance so
     * that taking it over is quick (a warm standby, docs/high-availability.md). Called on the election thread, so it
     * must not block; may be called again for the same destination. Nothing by default.
     */
    default void standingBy(String destination) {
    }

    /**
     * This server took the destination over and is about to tell the official client of {@code subscription} and
     * {@code clientId} to connect to it ({@link CanalServer#expectReconnect}). Nothing by default.
     */
    default void clientReconnecting(String subscription, short clientId) {
    }

    /** Starts and stops the destination's instance in the embedded server. */
    static ServerRunningListener embedded(CanalServer server) {
        return new ServerRunningListener() {
            @Override
            public void activeEnter(String destination) {
                server.start(destination);
            }

            @Override
            public void activeExit(String destination) {
                server.stop(destination);
            }

            @Override
            public Set<String> quiesce(Set<String> destinations, Duration wait) {
                return server.quiesce(destinations, wait);
            }

            @Override
            public void clientReconnecting(String subscription, short clientId) {
                server.expectReconnect(subscription, clientId);
            }
        };
    }
}
