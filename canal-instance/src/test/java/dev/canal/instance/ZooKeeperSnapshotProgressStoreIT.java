package dev.canal.instance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.testsupport.ZooKeeperServer;
import dev.canal.testsupport.ZooKeeperServerExtension;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@Tag("source-independent")
@ExtendWith(ZooKeeperServerExtension.class)
class ZooKeeperSnapshotProgressStoreIT {

    @Test
    void progressSavedByOneServerIsReadByTheServerThatTakesTheDestinationOver(ZooKeeperServer server)
            throws Exception {
        CuratorFramework first = server.newClient();
        CuratorFramework second = server.newClient();
        try {
            ZooKeeperSnapshotProgressStore running = new ZooKeeperSnapshotProgressStore(first, "snap_failover");
            assertThat(running.load()).as("no progress before the first save").isNull();
            running.save("tables=1\n");
            running.save("tables=2\n");

            ZooKeeperSnapshotProgressStore takingOver = new ZooKeeperSnapshotProgressStore(second, "snap_failover");
            assertThat(takingOver.load()).isEqualTo("tables=2\n");
            assertThat(second.checkExists().forPath("/otter/canal/destinations/snap_failover/snapshot")).isNotNull();
        } finally {
            first.close();
            second.close();
        }
    }
}
