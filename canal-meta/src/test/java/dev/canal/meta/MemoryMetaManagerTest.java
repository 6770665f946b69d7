package dev.canal.meta;

import static dev.canal.meta.Positions.at;
import static dev.canal.meta.Positions.range;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.protocol.ClientIdentity;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MemoryMetaManagerTest {

    private static final ClientIdentity CLIENT = new ClientIdentity("example", (short) 1001);

    private final MemoryMetaManager meta = new MemoryMetaManager();

    @BeforeEach
    void start() {
        meta.start();
    }

    @AfterEach
    void stop() {
        meta.stop();
    }

    @Test
    void subscribeRecordsTheClientAndUnsubscribeForgetsIt() {
        assertThat(meta.hasSubscribe(CLIENT)).isFalse();

        meta.subscribe(CLIENT);
        assertThat(meta.hasSubscribe(CLIENT)).isTrue();
        assertThat(meta.listAllSubscribeInfo("example")).containsExactly(CLIENT);
        assertThat(meta.listAllSubscribeInfo("other")).isEmpty();

        meta.unsubscribe(CLIENT);
        assertThat(meta.hasSubscribe(CLIENT)).isFalse();
        assertThat(meta.listAllSubscribeInfo("example")).isEmpty();
    }

    @Test
    void resubscribingReplacesTheFilterWithoutDuplicatingTheClient() {
        ClientIdentity second = new ClientIdentity("example", (short) 1002, "b\\..*");
        meta.subscribe(CLIENT.withFilter("a\\..*"));
        meta.subscribe(second);

        meta.subscribe(CLIENT.withFilter("c\\.t1"));

        List<ClientIdentity> clients = meta.listAllSubscribeInfo("example");
        assertThat(clients).hasSize(2);
        assertThat(clients).extracting(ClientIdentity::filter).containsExactlyInAnyOrder("b\\..*", "c\\.t1");
    }

    @Test
    void cursorIsNullUntilUpdatedThenHoldsTheLatestPosition() {
        meta.subscribe(CLIENT);
        assertThat(meta.getCursor(CLIENT)).isNull();

        meta.updateCursor(CLIENT, at(100));
        meta.updateCursor(CLIENT.withFilter("ignored.*"), at(200)); // the filter is not part of the identity

        assertThat(meta.getCursor(CLIENT)).isEqualTo(at(200));
    }

    @Test
    void batchIdsStartAtOneAndIncreasePerClient() {
        ClientIdentity other = new ClientIdentity("example", (short) 1002);

        assertThat(meta.addBatch(CLIENT, range(4, 10))).isEqualTo(1);
        assertThat(meta.addBatch(CLIENT, range(10, 20))).isEqualTo(2);
        assertThat(meta.addBatch(other, range(4, 10))).isEqualTo(1);
        assertThat(meta.addBatch(CLIENT, range(20, 30))).isEqualTo(3);

        assertThat(meta.listBatchIds(CLIENT)).containsExactly(1L, 2L, 3L);
        assertThat(meta.getBatch(CLIENT, 2)).isEqualTo(range(10, 20));
        assertThat(meta.getFirstBatch(CLIENT)).isEqualTo(range(4, 10));
        assertThat(meta.getLastestBatch(CLIENT)).isEqualTo(range(20, 30));
        assertThat(meta.listAllBatchs(CLIENT)).containsOnlyKeys(1L, 2L, 3L);
        assertThat(new ArrayList<>(meta.listAllBatchs(CLIENT).keySet())).containsExactly(1L, 2L, 3L);
    }

    @Test
    void removeBatchReturnsTheRangeWhenItIsTheSmallestOutstanding() {
        meta.addBatch(CLIENT, range(4, 10));
        meta.addBatch(CLIENT, range(10, 20));

        assertThat(meta.removeBatch(CLIENT, 1)).isEqualTo(range(4, 10));
        assertThat(meta.removeBatch(CLIENT, 2)).isEqualTo(range(10, 20));
        assertThat(meta.listBatchIds(CLIENT)).isEmpty();
    }

    @Test
    void removingABatchThatIsNotTheSmallestIsRejectedWithCanalsMessage() {
        meta.addBatch(CLIENT, range(4, 10));
        meta.addBatch(CLIENT, range(10, 20));

        assertThatThrownBy(() -> meta.removeBatch(CLIENT, 2))
                .isExactlyInstanceOf(MetaManagerException.class)
                .hasMessage("batchId:2 is not the firstly:1");
        assertThat(meta.listBatchIds(CLIENT)).containsExactly(1L, 2L);
    }

    @Test
    void removingAnUnknownBatchIsRejectedNamingClientAndId() {
        meta.addBatch(CLIENT, range(4, 10));

        assertThatThrownBy(() -> meta.removeBatch(CLIENT, 7))
                .isInstanceOfSatisfying(UnknownBatchException.class, e -> {
                    assertThat(e.batchId()).isEqualTo(7);
                    assertThat(e.client()).isEqualTo(CLIENT);
                })
                .hasMessage("clientId:1001 batchId:7 is not exist , please check");
    }

    @Test
    void clearAllBatchsForgetsOutstandingBatchesButNeverReusesTheirIds() {
        meta.addBatch(CLIENT, range(4, 10));
        meta.addBatch(CLIENT, range(10, 20));

        meta.clearAllBatchs(CLIENT);

        assertThat(meta.listBatchIds(CLIENT)).isEmpty();
        assertThat(meta.getFirstBatch(CLIENT)).isNull();
        assertThat(meta.getLastestBatch(CLIENT)).isNull();
        assertThat(meta.addBatch(CLIENT, range(4, 10))).isEqualTo(3);
    }

    @Test
    void explicitBatchIdPushesTheCounterPastIt() {
        meta.addBatch(CLIENT, range(4, 10), 41);

        assertThat(meta.getBatch(CLIENT, 41)).isEqualTo(range(4, 10));
        assertThat(meta.addBatch(CLIENT, range(10, 20))).isEqualTo(42);
    }

    @Test
    void stopForgetsEverything() {
        meta.subscribe(CLIENT);
        meta.updateCursor(CLIENT, at(100));
        meta.addBatch(CLIENT, range(4, 10));

        meta.stop();
        meta.start();

        assertThat(meta.hasSubscribe(CLIENT)).isFalse();
        assertThat(meta.getCursor(CLIENT)).isNull();
        assertThat(meta.addBatch(CLIENT, range(4, 10))).isEqualTo(1);
    }

    @Test
    void concurrentAddBatchHandsOutEveryIdExactlyOnce() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> tasks = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                tasks.add(pool.submit(() -> {
                    for (int i = 0; i < 250; i++) {
                        meta.addBatch(CLIENT, range(i, i + 1));
                    }
                }));
            }
            for (Future<?> task : tasks) {
                task.get();
            }
        } finally {
            pool.shutdown();
        }
        List<Long> ids = meta.listBatchIds(CLIENT);
        assertThat(ids).hasSize(1000);
        assertThat(ids.get(0)).isEqualTo(1L);
        assertThat(ids.get(999)).isEqualTo(1000L);
    }
}
