package dev.canal.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.instance.CanalInstance;
import dev.canal.instance.TestInstance;
import dev.canal.meta.MemoryMetaManager;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.Message;
import dev.canal.protocol.position.LogPosition;
import dev.canal.store.StoreConfig;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class EmbeddedCanalServerTest {

    private static final String DESTINATION = "example";
    private static final ClientIdentity CLIENT = new ClientIdentity(DESTINATION, (short) 1001);

    private TestInstance instance;
    private EmbeddedCanalServer server;

    @BeforeEach
    void startServer() {
        instance = new TestInstance(DESTINATION, StoreConfig.itemSize(64), new MemoryMetaManager());
        server = new EmbeddedCanalServer(destination -> {
            if (!destination.equals(DESTINATION)) {
                throw new IllegalArgumentException("no destination " + destination);
            }
            return instance;
        });
        server.start();
        server.start(DESTINATION);
    }

    @AfterEach
    void stopServer() {
        server.stop();
    }

    @Test
    void emptyStoreGivesBatchIdMinusOneAndConsumesNoId() {
        server.subscribe(CLIENT);

        Message empty = server.getWithoutAck(CLIENT, 10);
        instance.put(TestEntries.transaction(100, 1));
        Message first = server.getWithoutAck(CLIENT, 10);

        assertThat(empty.id()).isEqualTo(-1);
        assertThat(empty.isEmpty()).isTrue();
        assertThat(first.id()).isEqualTo(1);
        assertThat(offsets(first)).containsExactly(100L, 101L, 102L);
    }

    @Test
    void batchIdsCountFromOnePerNonEmptyGet() {
        server.subscribe(CLIENT);
        instance.put(TestEntries.transaction(100, 4)); // 6 entries

        List<Long> ids = List.of(server.getWithoutAck(CLIENT, 2).id(), server.getWithoutAck(CLIENT, 2).id(),
                server.getWithoutAck(CLIENT, 2).id(), server.getWithoutAck(CLIENT, 2).id());

        assertThat(ids).containsExactly(1L, 2L, 3L, -1L);
        assertThat(server.listBatchIds(CLIENT)).containsExactly(1L, 2L, 3L);
    }

    @Test
    void rawStoreShipsTheStoredBytesVerbatim() {
        server.subscribe(CLIENT);
        List<CanalEntry.Entry> entries = TestEntries.transaction(100, 1);
        instance.put(entries);

        Message message = server.getWithoutAck(CLIENT, 10);

        assertThat(message.raw()).isTrue();
        assertThat(message.rawEntries()).containsExactlyElementsOf(
                entries.stream().map(CanalEntry.Entry::toByteString).toList());
    }

    @Test
    void nonRawStoreShipsParsedEntries() {
        server.stop();
        instance = new TestInstance(DESTINATION, StoreConfig.itemSize(64).withRaw(false), new MemoryMetaManager());
        server.start();
        server.start(DESTINATION);
        server.subscribe(CLIENT);
        List<CanalEntry.Entry> entries = TestEntries.transaction(100, 1);
        instance.put(entries);

        Message message = server.getWithoutAck(CLIENT, 10);

        assertThat(message.raw()).isFalse();
        assertThat(message.entries()).containsExactlyElementsOf(entries);
    }

    @Test
    void ackMustNameTheSmallestOutstandingBatch() {
        server.subscribe(CLIENT);
        instance.put(TestEntries.transaction(100, 2));
        server.getWithoutAck(CLIENT, 2);
        server.getWithoutAck(CLIENT, 2);

        assertThatThrownBy(() -> server.ack(CLIENT, 2))
                .isInstanceOf(CanalServerException.class).hasMessage("batchId:2 is not the firstly:1");
        server.ack(CLIENT, 1);
        server.ack(CLIENT, 2);
        assertThat(server.listBatchIds(CLIENT)).isEmpty();
    }

    @Test
    void ackOfUnknownBatchIsRejectedWithCanalsMessage() {
        server.subscribe(CLIENT);
        instance.put(TestEntries.transaction(100, 1));
        server.getWithoutAck(CLIENT, 10);
        server.ack(CLIENT, 1);

        assertThatThrownBy(() -> server.ack(CLIENT, 1))
                .isInstanceOf(CanalServerException.class)
                .hasMessage("ack error , clientId:1001 batchId:1 is not exist , please check");
        assertThatThrownBy(() -> server.ack(CLIENT, 7))
                .hasMessage("ack error , clientId:1001 batchId:7 is not exist , please check");
    }

    @Test
    void ackMovesTheCursorToTheLastTransactionBoundaryAndFreesTheStore() {
        server.subscribe(CLIENT);
        instance.put(TestEntries.transaction(100, 2)); // 100 begin, 101-102 rows, 103 end
        instance.put(TestEntries.transaction(104, 2)); // 104 begin ... 107 end

        server.getWithoutAck(CLIENT, 6); // 100..105: last boundary inside is the begin at 104
        server.ack(CLIENT, 1);

        LogPosition cursor = instance.getMetaManager().getCursor(CLIENT);
        assertThat(cursor.position().position()).isEqualTo(104L);
        assertThat(cursor.position().journalName()).isEqualTo(TestEntries.JOURNAL);
        assertThat(instance.getEventStore().counters().ackSequence()).isEqualTo(5L);
    }

    @Test
    void ackOfABatchWithoutBoundaryLeavesTheCursor() {
        server.subscribe(CLIENT);
        instance.put(TestEntries.transaction(100, 3)); // 100 begin, 101-103 rows, 104 end
        server.getWithoutAck(CLIENT, 1);
        server.ack(CLIENT, 1);
        LogPosition afterBegin = instance.getMetaManager().getCursor(CLIENT);

        server.getWithoutAck(CLIENT, 2); // rows 101, 102: no boundary
        server.ack(CLIENT, 2);

        assertThat(instance.getMetaManager().getCursor(CLIENT)).isEqualTo(afterBegin);
        assertThat(afterBegin.position().position()).isEqualTo(100L);
    }

    @Test
    void rollbackRedeliversEveryUnackedBatchInOrder() {
        server.subscribe(CLIENT);
        instance.put(TestEntries.transaction(100, 4)); // 100..105
        server.getWithoutAck(CLIENT, 2);
        server.ack(CLIENT, 1);
        server.getWithoutAck(CLIENT, 2);
        server.getWithoutAck(CLIENT, 2);

        server.rollback(CLIENT);

        assertThat(server.listBatchIds(CLIENT)).isEmpty();
        Message again = server.getWithoutAck(CLIENT, 10);
        assertThat(again.id()).isEqualTo(4); // ids are never reused
        assertThat(offsets(again)).containsExactly(102L, 103L, 104L, 105L);
    }

    @Test
    void rollbackOfOneBatchRedeliversFromTheAckPointer() {
        server.subscribe(CLIENT);
        instance.put(TestEntries.transaction(100, 2)); // 100..103
        Message first = server.getWithoutAck(CLIENT, 2);

        server.rollback(CLIENT, first.id());

        Message again = server.getWithoutAck(CLIENT, 2);
        assertThat(offsets(again)).isEqualTo(offsets(first));
        assertThat(server.listBatchIds(CLIENT)).containsExactly(again.id());
    }

    @Test
    void rollbackOfOneBatchKeepsTheLaterBatchMarks() {
        server.subscribe(CLIENT);
        instance.put(TestEntries.transaction(100, 2));
        server.getWithoutAck(CLIENT, 2);
        server.getWithoutAck(CLIENT, 2);

        server.rollback(CLIENT, 1);

        assertThat(server.listBatchIds(CLIENT)).containsExactly(2L);
        assertThatThrownBy(() -> server.rollback(CLIENT, 9))
                .hasMessage("rollback error, clientId:1001 batchId:9 is not exist , please check");
    }

    @Test
    void rollbackOfAClientThatNeverSubscribedIsSilentlyIgnored() {
        server.rollback(CLIENT);
        server.rollback(CLIENT, 3);

        assertThat(instance.getMetaManager().hasSubscribe(CLIENT)).isFalse();
    }

    @Test
    void getBeforeSubscribeFails() {
        assertThatThrownBy(() -> server.getWithoutAck(CLIENT, 10))
                .isInstanceOf(CanalServerException.class)
                .hasMessage("ClientIdentity:" + CLIENT + " should subscribe first");
        assertThatThrownBy(() -> server.ack(CLIENT, 1)).hasMessageEndingWith("should subscribe first");
        assertThatThrownBy(() -> server.listBatchIds(CLIENT)).hasMessageEndingWith("should subscribe first");
    }

    @Test
    void everyClientOperationNeedsAStartedInstance() {
        ClientIdentity elsewhere = new ClientIdentity("other", (short) 1001);

        assertThat(server.isStart("other")).isFalse();
        assertThatThrownBy(() -> server.subscribe(elsewhere)).hasMessage("destination:other should start first");
        assertThatThrownBy(() -> server.getWithoutAck(elsewhere, 1)).hasMessage("destination:other should start first");
        assertThatThrownBy(() -> server.ack(elsewhere, 1)).hasMessage("destination:other should start first");
        assertThatThrownBy(() -> server.rollback(elsewhere)).hasMessage("destination:other should start first");
    }

    @Test
    void stoppedDestinationRefusesClientsUntilStartedAgain() {
        server.subscribe(CLIENT);
        server.stop(DESTINATION);

        assertThat(server.isStart(DESTINATION)).isFalse();
        assertThatThrownBy(() -> server.getWithoutAck(CLIENT, 1))
                .hasMessage("destination:example should start first");
        server.start(DESTINATION);
        assertThat(server.isStart(DESTINATION)).isTrue();
    }

    @Test
    void getAcksAtOnceAndRefusesWhileABatchIsOutstanding() {
        server.subscribe(CLIENT);
        instance.put(TestEntries.transaction(100, 2));

        Message acked = server.get(CLIENT, 2);
        assertThat(server.listBatchIds(CLIENT)).isEmpty();
        assertThat(acked.id()).isEqualTo(1);

        server.getWithoutAck(CLIENT, 1);
        assertThatThrownBy(() -> server.get(CLIENT, 1))
                .isInstanceOf(CanalServerException.class)
                .hasMessageStartingWith("clientId:1001 has last batch:[")
                .hasMessageEndingWith("] isn't ack , maybe loss data");
    }

    @Test
    void subscribeSavesNoCursorBeforeTheFirstAckAndAppliesANonEmptyFilter() {
        instance.put(TestEntries.transaction(100, 1));

        server.subscribe(CLIENT);
        server.subscribe(CLIENT.withFilter("test\\..*"));

        assertThat(instance.getMetaManager().getCursor(CLIENT))
                .as("a restart from the first entry's position would skip that entry").isNull();
        assertThat(instance.appliedFilters()).containsExactly("test\\..*");
        assertThat(instance.getMetaManager().listAllSubscribeInfo(DESTINATION))
                .extracting(ClientIdentity::filter).containsExactly("test\\..*");
    }

    @Test
    void unsubscribedClientMustSubscribeAgain() {
        server.subscribe(CLIENT);
        server.unsubscribe(CLIENT);

        assertThatThrownBy(() -> server.getWithoutAck(CLIENT, 1)).hasMessageEndingWith("should subscribe first");
    }

    @Test
    void timedGetReturnsEmptyWhenNothingArrives() {
        server.subscribe(CLIENT);

        Message message = server.getWithoutAck(CLIENT, 10, 50L, TimeUnit.MILLISECONDS);

        assertThat(message.id()).isEqualTo(-1);
    }

    @Test
    void timedGetReturnsWhatArrivedWhenTheTimeoutExpires() {
        server.subscribe(CLIENT);
        instance.put(TestEntries.transaction(100, 1)); // 3 entries, fewer than the 10 asked for

        Message message = server.getWithoutAck(CLIENT, 10, 50L, TimeUnit.MILLISECONDS);

        assertThat(offsets(message)).containsExactly(100L, 101L, 102L);
    }

    @Test
    void getWithZeroTimeoutWaitsUntilEnoughArrives() throws Exception {
        server.subscribe(CLIENT);
        CompletableFuture<Message> waiting = CompletableFuture.supplyAsync(
                () -> server.getWithoutAck(CLIENT, 3, 0L, TimeUnit.MILLISECONDS));

        instance.put(TestEntries.transaction(100, 1));

        assertThat(offsets(waiting.get(10, TimeUnit.SECONDS))).containsExactly(100L, 101L, 102L);
    }

    @Test
    void minusOneTimeoutDoesNotWait() {
        server.subscribe(CLIENT);

        assertThat(server.getWithoutAck(CLIENT, 10, -1L, TimeUnit.MILLISECONDS).id()).isEqualTo(-1);
    }

    @Test
    void stoppingTheServerStopsItsInstances() {
        server.stop();

        assertThat(instance.isStart()).isFalse();
        assertThat(server.isStart(DESTINATION)).isFalse();
    }

    @Test
    void listenersHearTheInstanceStartAndStopAndALateOneHearsTheRunningInstance() {
        List<String> heard = new CopyOnWriteArrayList<>();
        InstanceListener listener = new InstanceListener() {
            @Override
            public void starting(CanalInstance started) {
                heard.add("starting " + started.getDestination() + " running=" + started.isStart());
            }

            @Override
            public void stopped(CanalInstance stopped) {
                heard.add("stopped " + stopped.getDestination() + " running=" + stopped.isStart());
            }
        };

        server.addInstanceListener(listener); // the instance runs already
        server.stop(DESTINATION);
        server.start(DESTINATION);
        server.removeInstanceListener(listener);
        server.stop(DESTINATION);

        assertThat(heard).containsExactly("starting example running=true", "stopped example running=false",
                "starting example running=false");
    }

    @Test
    void aFailingListenerDoesNotStopTheInstanceFromStarting() {
        server.stop(DESTINATION);
        server.addInstanceListener(new InstanceListener() {
            @Override
            public void starting(CanalInstance started) {
                throw new IllegalStateException("listener broken");
            }

            @Override
            public void stopped(CanalInstance stopped) {
            }
        });

        server.start(DESTINATION);

        assertThat(server.isStart(DESTINATION)).isTrue();
    }

    private static List<Long> offsets(Message message) {
        return message.rawEntries().stream().map(TestEntries::offsetOf).toList();
    }
}
