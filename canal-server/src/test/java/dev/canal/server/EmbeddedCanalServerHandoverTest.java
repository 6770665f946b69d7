package dev.canal.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.canal.instance.TestInstance;
import dev.canal.meta.MemoryMetaManager;
import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.Message;
import dev.canal.store.StoreConfig;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the clients of a destination see while this server hands it over to another one. */
class EmbeddedCanalServerHandoverTest {

    private static final String DESTINATION = "example";
    private static final ClientIdentity CLIENT = new ClientIdentity(DESTINATION, (short) 1001);
    private static final ClientIdentity CONSUMER = new ClientIdentity(DESTINATION + "@billing", (short) 1001);
    private static final Duration LONG_WAIT = Duration.ofSeconds(30);

    private TestInstance instance;
    private EmbeddedCanalServer server;

    @BeforeEach
    void startServer() {
        startServer(new EmbeddedCanalServer(destination -> instance));
    }

    private void startServer(EmbeddedCanalServer started) {
        if (server != null) {
            server.stop();
        }
        instance = new TestInstance(DESTINATION, StoreConfig.itemSize(64), new MemoryMetaManager());
        server = started;
        server.start();
        server.start(DESTINATION);
        server.subscribe(CLIENT);
    }

    @AfterEach
    void stopServer() {
        server.stop();
    }

    @Test
    void aClientToldToReconnectAfterATakeoverIsHandedNothingUntilItRollsBack() {
        startServer(new EmbeddedCanalServer(destination -> instance, LONG_WAIT));
        instance.put(TestEntries.transaction(100, 1));
        server.expectReconnect(DESTINATION, CLIENT.clientId());

        assertThat(server.getWithoutAck(CLIENT, 10).id()).as("before the rollback on connecting")
                .isEqualTo(Message.EMPTY_BATCH_ID);
        server.rollback(CLIENT);

        Message batch = server.getWithoutAck(CLIENT, 10);
        assertThat(batch.id()).isNotEqualTo(Message.EMPTY_BATCH_ID);
        server.ack(CLIENT, batch.id());
    }

    @Test
    void quiesceWaitsUntilTheOutstandingBatchIsAcked() {
        instance.put(TestEntries.transaction(100, 1));
        Message held = server.getWithoutAck(CLIENT, 10);

        CompletableFuture<Set<String>> quiesced = quiesceStillWaiting();
        server.ack(CLIENT, held.id());

        assertThat(quiesced.join()).isEmpty();
        assertThat(instance.getMetaManager().getCursor(CLIENT)).isNotNull();
    }

    @Test
    void quiesceWaitsForTheBatchesOfNamedConsumersToo() {
        server.subscribe(CONSUMER);
        instance.put(TestEntries.transaction(100, 1));
        server.getWithoutAck(CLIENT, 10); // the default consumer holds nothing once acked
        server.ack(CLIENT, 1);
        Message held = server.getWithoutAck(CONSUMER, 10);

        CompletableFuture<Set<String>> quiesced = quiesceStillWaiting();
        server.ack(CONSUMER, held.id());

        assertThat(quiesced.join()).isEmpty();
    }

    @Test
    void quiesceGivesUpAfterItsWaitNamingTheDestinationWhoseBatchIsStillOut() {
        instance.put(TestEntries.transaction(100, 1));
        server.getWithoutAck(CLIENT, 10);

        assertThat(server.quiesce(List.of(DESTINATION), Duration.ofMillis(100))).containsExactly(DESTINATION);
    }

    @Test
    void nothingIsHandedOutOnceTheHandoverBegan() {
        server.quiesce(List.of(DESTINATION), LONG_WAIT);
        instance.put(TestEntries.transaction(100, 1));

        assertThat(server.getWithoutAck(CLIENT, 10).id()).isEqualTo(Message.EMPTY_BATCH_ID);
        assertThat(server.getWithoutAck(CLIENT, 10, 50L, TimeUnit.MILLISECONDS).isEmpty()).isTrue();
        assertThat(server.get(CLIENT, 10).isEmpty()).isTrue();
        assertThat(instance.getMetaManager().listBatchIds(CLIENT)).isEmpty();
    }

    @Test
    void afterItsStopAHandedOverDestinationAnswersGetsWithNothingAndIgnoresAcksAndRollbacks() {
        server.quiesce(List.of(DESTINATION), LONG_WAIT);
        server.stop(DESTINATION);

        assertThat(server.getWithoutAck(CLIENT, 10).isEmpty()).isTrue();
        assertThat(server.getWithoutAck(CLIENT, 10, 50L, TimeUnit.MILLISECONDS).isEmpty()).isTrue();
        server.ack(CLIENT, 7);
        server.rollback(CLIENT);
        server.rollback(CLIENT, 7);
        assertThat(server.isStart(DESTINATION)).isFalse();
    }

    @Test
    void aClientStillAskingAfterTheMovingClientsWaitIsToldTheDestinationDoesNotRunHere() {
        startServer(new EmbeddedCanalServer(destination -> instance, Duration.ofMillis(200)));
        server.quiesce(List.of(DESTINATION), LONG_WAIT);
        server.stop(DESTINATION);

        assertThat(server.getWithoutAck(CLIENT, 10).isEmpty()).isTrue(); // its new server's call to move may come
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThatThrownBy(
                () -> server.getWithoutAck(CLIENT, 10)).isInstanceOf(CanalServerException.class)
                .hasMessage("destination:example should start first"));
        assertThatThrownBy(() -> server.get(CLIENT, 10)).hasMessage("destination:example should start first");
    }

    @Test
    void aGetWaitingWithoutTimeoutOnAHandedOverDestinationFailsWhenTheMovingClientsWaitEnds() {
        startServer(new EmbeddedCanalServer(destination -> instance, Duration.ofMillis(200)));
        server.quiesce(List.of(DESTINATION), LONG_WAIT);
        CompletableFuture<Message> waiting = CompletableFuture.supplyAsync(
                () -> server.getWithoutAck(CLIENT, 10, 0L, TimeUnit.MILLISECONDS));
        server.stop(DESTINATION);

        assertThatThrownBy(() -> waiting.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(CanalServerException.class);
    }

    @Test
    void aDestinationStartedHereAgainHandsOutItsBatchesAgain() {
        server.quiesce(List.of(DESTINATION), LONG_WAIT);
        server.stop(DESTINATION);

        server.start(DESTINATION);
        server.subscribe(CLIENT);
        instance.put(TestEntries.transaction(100, 1));

        assertThat(server.getWithoutAck(CLIENT, 10).isEmpty()).isFalse();
    }

    @Test
    void aGetWaitingInTheStoreWhenTheHandoverBeginsIsWaitedFor() throws Exception {
        CompletableFuture<Message> waiting = new CompletableFuture<>();
        Thread getter = new Thread(() -> waiting.complete(server.getWithoutAck(CLIENT, 3, 30L, TimeUnit.SECONDS)));
        getter.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> getter.getState() == Thread.State.TIMED_WAITING);
        CompletableFuture<Set<String>> quiesced = quiesceStillWaiting();

        instance.put(TestEntries.transaction(100, 1)); // the three entries the waiting get waits for: a batch out
        Message taken = waiting.get(5, TimeUnit.SECONDS);
        assertThat(taken.isEmpty()).isFalse();
        assertStillWaiting(quiesced);
        server.ack(CLIENT, taken.id());

        assertThat(quiesced.join()).isEmpty();
    }

    /** Starts a quiesce of the destination in the background and checks that it waits. */
    private CompletableFuture<Set<String>> quiesceStillWaiting() {
        CompletableFuture<Set<String>> quiesced = CompletableFuture.supplyAsync(
                () -> server.quiesce(List.of(DESTINATION), LONG_WAIT));
        assertStillWaiting(quiesced);
        return quiesced;
    }

    private static void assertStillWaiting(CompletableFuture<Set<String>> quiesced) {
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !quiesced.isDone());
    }
}
