package dev.canal.meta;

import static dev.canal.meta.Positions.at;
import static dev.canal.meta.Positions.range;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.protocol.ClientIdentity;
import dev.canal.testsupport.ZooKeeperServer;
import dev.canal.testsupport.ZooKeeperServerExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@Tag("source-independent")
@ExtendWith(ZooKeeperServerExtension.class)
class PeriodMixedMetaManagerIT {

    private static final long NEVER = TimeUnit.HOURS.toMillis(1);
    private static final AtomicInteger DESTINATIONS = new AtomicInteger();

    private final List<PeriodMixedMetaManager> started = new ArrayList<>();
    private ZooKeeperServer server;
    private CuratorFramework zk;
    private ClientIdentity client;

    @BeforeEach
    void newDestination(ZooKeeperServer zooKeeper) throws Exception {
        server = zooKeeper;
        zk = server.newClient();
        client = new ClientIdentity("mixed" + DESTINATIONS.incrementAndGet(), (short) 1001);
    }

    @AfterEach
    void stopAll() {
        started.forEach(PeriodMixedMetaManager::stop);
    }

    /** A manager on its own ZooKeeper session, as each canal server has. */
    private PeriodMixedMetaManager startManager(long periodMillis) throws Exception {
        PeriodMixedMetaManager meta = new PeriodMixedMetaManager(new ZooKeeperMetaManager(server.newClient()),
                periodMillis);
        meta.start();
        started.add(meta);
        return meta;
    }

    private String cursorNode() throws Exception {
        byte[] data = zk.getData().forPath(ZooKeeperPaths.cursor(client.destination(), client.clientId()));
        return new String(data, StandardCharsets.UTF_8);
    }

    private boolean clientNodeExists() throws Exception {
        return zk.checkExists().forPath(ZooKeeperPaths.client(client.destination(), client.clientId())) != null;
    }

    @Test
    void subscriptionReachesZooKeeperAsynchronously() throws Exception {
        PeriodMixedMetaManager meta = startManager(NEVER);

        meta.subscribe(client.withFilter("db\\..*"));

        assertThat(meta.hasSubscribe(client)).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(this::clientNodeExists);
    }

    @Test
    void changedCursorIsPushedPeriodicallyAndAServerTakingOverResumesFromIt() throws Exception {
        PeriodMixedMetaManager active = startManager(50);
        active.subscribe(client.withFilter("db\\..*"));
        active.updateCursor(client, at(1234));

        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(cursorNode()).isEqualTo(MetaJsonTest.CANAL_TYPED_CURSOR));

        PeriodMixedMetaManager takingOver = startManager(50);
        assertThat(takingOver.listAllSubscribeInfo(client.destination())).singleElement()
                .satisfies(c -> assertThat(c.filter()).isEqualTo("db\\..*"));
        assertThat(takingOver.getCursor(client)).isEqualTo(at(1234));
    }

    @Test
    void stopPushesTheCursorThePeriodHasNotPushedYet() throws Exception {
        PeriodMixedMetaManager meta = startManager(NEVER);
        meta.subscribe(client);
        meta.updateCursor(client, at(1234));

        meta.stop();

        assertThat(cursorNode()).isEqualTo(MetaJsonTest.CANAL_TYPED_CURSOR);
    }

    @Test
    void batchesStayInMemoryButExistingMarksAreLoadedAtStart() throws Exception {
        ZooKeeperMetaManager direct = new ZooKeeperMetaManager(zk);
        direct.subscribe(client);
        direct.addBatch(client, range(4, 10), 7);

        PeriodMixedMetaManager meta = startManager(50);

        assertThat(meta.listAllBatchs(client)).containsOnlyKeys(7L);
        assertThat(meta.addBatch(client, range(10, 20))).isEqualTo(8);
        meta.stop();
        assertThat(direct.listBatchIds(client)).containsExactly(7L);
    }

    @Test
    void unsubscribeDeletesTheClientNodeAndAPendingCursorDoesNotRecreateIt() throws Exception {
        PeriodMixedMetaManager meta = startManager(NEVER);
        meta.subscribe(client);
        await().atMost(Duration.ofSeconds(10)).until(this::clientNodeExists);

        meta.updateCursor(client, at(1234));
        meta.unsubscribe(client);
        meta.stop(); // pushes pending cursors after the queued unsubscribe

        assertThat(clientNodeExists()).isFalse();
    }

    @Test
    void restartReloadsFromZooKeeperRatherThanKeepingStaleMemory() throws Exception {
        PeriodMixedMetaManager meta = startManager(NEVER);
        meta.subscribe(client);
        meta.updateCursor(client, at(1000));
        meta.stop();
        new ZooKeeperMetaManager(zk).updateCursor(client, at(1234)); // the other server moved on

        meta.start();

        assertThat(meta.getCursor(client)).isEqualTo(at(1234));
    }
}
