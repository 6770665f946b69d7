package dev.canal.meta;

import static dev.canal.meta.Positions.at;
import static dev.canal.meta.Positions.range;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.position.PositionRange;
import dev.canal.testsupport.ZooKeeperServer;
import dev.canal.testsupport.ZooKeeperServerExtension;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@Tag("source-independent")
@ExtendWith(ZooKeeperServerExtension.class)
class ZooKeeperMetaManagerIT {

    private static final AtomicInteger DESTINATIONS = new AtomicInteger();

    private ZooKeeperServer server;
    private CuratorFramework zk;
    private ZooKeeperMetaManager meta;
    private ClientIdentity client;

    @BeforeEach
    void newDestination(ZooKeeperServer zooKeeper) throws Exception {
        server = zooKeeper;
        zk = server.newClient();
        meta = new ZooKeeperMetaManager(zk);
        meta.start();
        client = new ClientIdentity("zk" + DESTINATIONS.incrementAndGet(), (short) 1001);
    }

    private ZooKeeperMetaManager secondServer() throws Exception {
        ZooKeeperMetaManager other = new ZooKeeperMetaManager(server.newClient());
        other.start();
        return other;
    }

    private String nodeText(String path) throws Exception {
        return new String(zk.getData().forPath(path), StandardCharsets.UTF_8);
    }

    @Test
    void subscribeCreatesCanalsClientNodeAndFilterNodeSeenByAnotherServer() throws Exception {
        meta.subscribe(client.withFilter("db\\..*"));

        String clientPath = "/otter/canal/destinations/" + client.destination() + "/1001";
        assertThat(zk.checkExists().forPath(clientPath)).isNotNull();
        assertThat(nodeText(clientPath + "/filter")).isEqualTo("db\\..*");

        ZooKeeperMetaManager other = secondServer();
        assertThat(other.hasSubscribe(client)).isTrue();
        assertThat(other.listAllSubscribeInfo(client.destination())).singleElement()
                .satisfies(c -> assertThat(c.filter()).isEqualTo("db\\..*"));
    }

    @Test
    void blankFilterCreatesNoFilterNodeAndKeepsAnEarlierOne() throws Exception {
        meta.subscribe(client);
        assertThat(zk.checkExists().forPath(ZooKeeperPaths.filter(client.destination(), (short) 1001))).isNull();

        meta.subscribe(client.withFilter("a\\.b"));
        meta.subscribe(client);

        assertThat(meta.listAllSubscribeInfo(client.destination()).get(0).filter()).isEqualTo("a\\.b");
    }

    @Test
    void listingSkipsTheDestinationsNonClientNodes() throws Exception {
        meta.subscribe(client);
        ClientIdentity second = new ClientIdentity(client.destination(), (short) 7);
        meta.subscribe(second);
        String destination = ZooKeeperPaths.destination(client.destination());
        zk.create().forPath(destination + "/cluster");
        zk.create().forPath(destination + "/running", "{}".getBytes(StandardCharsets.UTF_8));

        assertThat(meta.listAllSubscribeInfo(client.destination())).containsExactly(second, client);
        assertThat(meta.listAllSubscribeInfo("never-used")).isEmpty();
    }

    @Test
    void aConsumerNodeWhoseNameIsNoValidConsumerNameIsSkipped() throws Exception {
        meta.subscribe(client);
        ClientIdentity billing = new ClientIdentity(client.destination() + "@billing", (short) 1001);
        meta.subscribe(billing);
        String forged = ZooKeeperPaths.destination(client.destination() + "@bad name*");
        zk.create().creatingParentsIfNeeded().forPath(forged + "/1001");

        assertThat(meta.listSubscribedNames(client.destination()))
                .containsExactly(client.destination(), billing.destination());
    }

    @Test
    void cursorNodeHoldsCanalsTypedJsonAndAnotherServerReadsIt() throws Exception {
        meta.subscribe(client);
        meta.updateCursor(client, at(1000));
        meta.updateCursor(client, at(1234));

        assertThat(nodeText(ZooKeeperPaths.cursor(client.destination(), (short) 1001)))
                .isEqualTo(MetaJsonTest.CANAL_TYPED_CURSOR);
        assertThat(secondServer().getCursor(client)).isEqualTo(at(1234));
        assertThat(meta.getCursor(new ClientIdentity(client.destination(), (short) 2))).isNull();
    }

    @Test
    void marksAreSequentialNodesNamedWithTenDigitsStartingAtZero() throws Exception {
        assertThat(meta.addBatch(client, range(4, 10))).isEqualTo(0);
        assertThat(meta.addBatch(client, range(10, 20))).isEqualTo(1);
        meta.addBatch(client, range(20, 30), 5);

        String marks = ZooKeeperPaths.marks(client.destination(), (short) 1001);
        assertThat(zk.getChildren().forPath(marks)).containsExactlyInAnyOrder("0000000000", "0000000001", "0000000005");
        assertThat(nodeText(marks + "/0000000001")).isEqualTo(MetaJson.toTypedJson(range(10, 20)))
                .startsWith("{\"@type\":\"com.alibaba.otter.canal.protocol.position.PositionRange\"");

        ZooKeeperMetaManager other = secondServer();
        assertThat(other.listBatchIds(client)).containsExactly(0L, 1L, 5L);
        assertThat(other.listAllBatchs(client)).containsEntry(5L, range(20, 30));
        assertThat(other.getFirstBatch(client)).isEqualTo(range(4, 10));
        assertThat(other.getLastestBatch(client)).isEqualTo(range(20, 30));
        assertThat(other.getBatch(client, 1)).isEqualTo(range(10, 20));
    }

    @Test
    void removeBatchEnforcesSmallestFirstAndRejectsUnknownIds() {
        meta.addBatch(client, range(4, 10));
        meta.addBatch(client, range(10, 20));

        assertThatThrownBy(() -> meta.removeBatch(client, 1)).hasMessage("batchId:1 is not the firstly:0");
        assertThatThrownBy(() -> meta.removeBatch(client, 9)).isInstanceOf(UnknownBatchException.class);
        PositionRange removed = meta.removeBatch(client, 0);

        assertThat(removed).isEqualTo(range(4, 10));
        assertThat(meta.listBatchIds(client)).containsExactly(1L);
        meta.clearAllBatchs(client);
        assertThat(meta.listBatchIds(client)).isEmpty();
    }

    @Test
    void unsubscribeDeletesTheClientNodeWithEverythingUnderIt() throws Exception {
        meta.subscribe(client.withFilter("x"));
        meta.updateCursor(client, at(1234));
        meta.addBatch(client, range(4, 10));

        meta.unsubscribe(client);
        meta.unsubscribe(client);

        assertThat(zk.checkExists().forPath(ZooKeeperPaths.client(client.destination(), (short) 1001))).isNull();
        assertThat(meta.hasSubscribe(client)).isFalse();
        assertThat(meta.getCursor(client)).isNull();
    }

    @Test
    void corruptCursorNodeIsReportedWithItsPath() throws Exception {
        String cursor = ZooKeeperPaths.cursor(client.destination(), (short) 1001);
        zk.create().creatingParentsIfNeeded().forPath(cursor, "{\"postion\":".getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> meta.getCursor(client))
                .isInstanceOf(MetaManagerException.class)
                .hasMessageContaining(cursor);
    }
}
