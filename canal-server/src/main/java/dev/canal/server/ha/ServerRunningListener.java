package dev.canal.server.ha;

import dev.canal.server.CanalServer;

/**
 * What a {@link ServerRunningMonitor} does when this node becomes active for a destination or stops being
 * it (Canal's ServerRunningListener): start and stop the embedded instance, and whatever the launcher runs
 * beside it (an MQ worker). Both are called with no ZooKeeper call in progress; {@code activeExit} is the
 * fencing step and must stop delivery before it returns.
 */
public interface ServerRunningListener {

    void activeEnter(String destination);

    void activeExit(String destination);

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
        };
    }
}
