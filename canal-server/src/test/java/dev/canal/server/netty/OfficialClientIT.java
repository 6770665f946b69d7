package dev.canal.server.netty;

import static dev.canal.server.netty.RunningServer.DESTINATION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.client.CanalConnectors;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.Message;
import com.alibaba.otter.canal.protocol.exception.CanalClientException;
import dev.canal.meta.FileMixedMetaManager;
import dev.canal.meta.MemoryMetaManager;
import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.position.LogPosition;
import dev.canal.server.ServerConfig;
import dev.canal.server.TestEntries;
import dev.canal.store.StoreConfig;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official Java client {@code com.alibaba.otter:canal.client:1.1.7} (SimpleCanalConnector, plain sockets)
 * against our TCP server, backed by a real memory store and meta manager holding test entries.
 */
@Tag("source-independent")
class OfficialClientIT {

    /** The id the official client always uses. */
    private static final ClientIdentity OFFICIAL_CLIENT = new ClientIdentity(DESTINATION, (short) 1001);

    @AutoClose // after the connector's disconnect
    private RunningServer server;
    private CanalConnector connector;

    @AfterEach
    void disconnect() {
        if (connector != null) {
            connector.disconnect();
        }
    }

    /** Connects without user and password and subscribes with the instance's own filter. */
    private void subscribeWithoutCredentials() {
        connector = connect("", "");
        connector.subscribe();
    }

    @Test
    void getWithoutAckDeliversTheEntriesAndAckFreesThem() {
        server = RunningServer.open();
        server.instance.put(TestEntries.transaction(100, 2));
        subscribeWithoutCredentials();

        Message batch = connector.getWithoutAck(100);
        connector.ack(batch.getId());
        Message next = connector.getWithoutAck(100);

        assertThat(batch.getId()).isEqualTo(1);
        assertThat(batch.getEntries()).extracting(e -> e.getHeader().getLogfileOffset())
                .containsExactly(100L, 101L, 102L, 103L);
        assertThat(batch.getEntries()).extracting(CanalEntry.Entry::getEntryType).containsExactly(
                CanalEntry.EntryType.TRANSACTIONBEGIN, CanalEntry.EntryType.ROWDATA, CanalEntry.EntryType.ROWDATA,
                CanalEntry.EntryType.TRANSACTIONEND);
        assertThat(batch.getEntries().get(1).getHeader().getEventType()).isEqualTo(CanalEntry.EventType.INSERT);
        assertThat(batch.getEntries().get(1).getStoreValue().toStringUtf8()).isEqualTo("value@101");
        assertThat(next.getId()).isEqualTo(-1);
        assertThat(next.getEntries()).isEmpty();
        assertThat(server.instance.getMetaManager().getCursor(OFFICIAL_CLIENT).position().position())
                .isEqualTo(103L);
    }

    /** Regression: acks still queued when the connection closed were dropped, so the cursor never moved. */
    @Test
    void anAckSentRightBeforeDisconnectStillMovesTheCursor() {
        server = RunningServer.open();
        server.instance.put(TestEntries.transaction(100, 2));
        subscribeWithoutCredentials();

        Message batch = connector.getWithoutAck(100);
        connector.ack(batch.getId());
        connector.disconnect();
        connector = null;

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(server.instance.getMetaManager().getCursor(OFFICIAL_CLIENT).position().position())
                        .isEqualTo(103L));
    }

    @Test
    void nonRawStoreIsReadByTheOfficialClientToo() {
        server = RunningServer.with(ServerConfig.open(0), StoreConfig.itemSize(64).withRaw(false),
                MemoryMetaManager::new, true);
        server.instance.put(TestEntries.transaction(100, 1));
        subscribeWithoutCredentials();

        assertThat(connector.getWithoutAck(10).getEntries()).extracting(e -> e.getHeader().getLogfileOffset())
                .containsExactly(100L, 101L, 102L);
    }

    @Test
    void subscribeWithFilterHandsTheFilterToTheInstanceAndRemembersIt() {
        server = RunningServer.open();
        connector = connect("", "");

        connector.subscribe("test\\..*,other.t1");

        assertThat(server.instance.appliedFilters()).containsExactly("test\\..*,other.t1");
        assertThat(server.instance.getMetaManager().listAllSubscribeInfo(DESTINATION))
                .extracting(ClientIdentity::clientId, ClientIdentity::filter)
                .containsExactly(org.assertj.core.groups.Tuple.tuple((short) 1001, "test\\..*,other.t1"));
    }

    @Test
    void subscribeWithoutFilterLeavesTheInstanceFilterAlone() {
        server = RunningServer.open();
        connector = connect("", "");

        connector.subscribe();

        assertThat(server.instance.appliedFilters()).isEmpty();
        assertThat(server.instance.getMetaManager().hasSubscribe(OFFICIAL_CLIENT)).isTrue();
    }

    @Test
    void rollbackOfABatchRedeliversTheSameEntries() {
        server = RunningServer.open();
        server.instance.put(TestEntries.transaction(100, 2));
        subscribeWithoutCredentials();

        Message first = connector.getWithoutAck(3);
        connector.rollback(first.getId());
        Message again = connector.getWithoutAck(3);
        connector.rollback();
        Message afterRollbackAll = connector.getWithoutAck(3);

        assertThat(again.getEntries()).isEqualTo(first.getEntries());
        assertThat(again.getId()).isEqualTo(first.getId() + 1);
        assertThat(afterRollbackAll.getEntries()).isEqualTo(first.getEntries());
        assertThat(server.instance.getMetaManager().listBatchIds(OFFICIAL_CLIENT))
                .containsExactly(afterRollbackAll.getId());
    }

    @Test
    void getWithTimeoutOnAnIdleStreamWaitsThenReturnsEmpty() {
        server = RunningServer.open();
        subscribeWithoutCredentials();

        long started = System.nanoTime();
        Message message = connector.getWithoutAck(10, 300L, TimeUnit.MILLISECONDS);
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

        assertThat(message.getId()).isEqualTo(-1);
        assertThat(waitedMillis).isGreaterThanOrEqualTo(250);
    }

    @Test
    void longPollReturnsAsSoonAsEnoughEntriesArrive() throws Exception {
        server = RunningServer.open();
        subscribeWithoutCredentials();

        CompletableFuture<Message> polling = CompletableFuture.supplyAsync(
                () -> connector.getWithoutAck(4, 30L, TimeUnit.SECONDS));
        server.instance.put(TestEntries.transaction(100, 2));

        assertThat(polling.get(20, TimeUnit.SECONDS).getEntries()).hasSize(4);
    }

    @Test
    void getWithAutoAckLeavesNothingOutstanding() {
        server = RunningServer.open();
        server.instance.put(TestEntries.transaction(100, 1));
        subscribeWithoutCredentials();

        Message message = connector.get(10);

        assertThat(message.getEntries()).hasSize(3);
        await().untilAsserted(() ->
                assertThat(server.instance.getMetaManager().listBatchIds(OFFICIAL_CLIENT)).isEmpty());
    }

    @Test
    void rightPasswordIsAcceptedAndAWrongOneRejected() {
        server = RunningServer.with(ServerConfig.open(0).withCredentials("canal", AuthScramble.passwordHash("canal")));

        CanalConnector wrong = connectorFor("canal", "not-canal");
        assertThatThrownBy(wrong::connect)
                .isInstanceOf(CanalClientException.class)
                .hasStackTraceContaining("auth failed for user:canal");
        wrong.disconnect();

        connector = connect("canal", "canal");
        connector.subscribe();
        assertThat(connector.getWithoutAck(10).getId()).isEqualTo(-1);
    }

    @Test
    void connectionBeyondTheCapFailsNamingTheLimitWhileTheConnectedClientGoesOn() {
        server = RunningServer.with(ServerConfig.open(0).withMaxConnections(1));
        subscribeWithoutCredentials();

        CanalConnector refused = connectorFor("", "");
        assertThatThrownBy(refused::connect)
                .isInstanceOf(CanalClientException.class)
                .hasStackTraceContaining("too many client connections")
                .hasStackTraceContaining(ServerConfig.MAX_CONNECTIONS.name());
        refused.disconnect();

        assertThat(connector.getWithoutAck(10).getId()).isEqualTo(-1);
    }

    @Test
    void unsubscribedClientGetsCanalsErrorOnGet() {
        server = RunningServer.open();
        subscribeWithoutCredentials();
        connector.unsubscribe();

        assertThatThrownBy(() -> connector.getWithoutAck(10))
                .isInstanceOf(CanalClientException.class)
                .hasStackTraceContaining("should subscribe first");
    }

    /** A Canal quirk: the rollback-on-connect error is read as the SUBSCRIPTION reply. */
    @Test
    void firstSubscribeToADestinationNotYetStartedFailsLikeCanalAndStartsIt() {
        server = RunningServer.open();
        server.embedded.stop(DESTINATION);
        CanalConnector first = connect("", "");

        assertThatThrownBy(first::subscribe)
                .isInstanceOf(CanalClientException.class)
                .hasStackTraceContaining("destination:example should start first");
        first.disconnect();

        // the client returns on reading the rollback's error, maybe before the server has read its SUBSCRIPTION
        await().atMost(Duration.ofSeconds(10)).until(() -> server.embedded.isStart(DESTINATION));
        subscribeWithoutCredentials();
        assertThat(connector.getWithoutAck(10).getId()).isEqualTo(-1);
    }

    @Test
    void restartWithFileMetaResumesFromTheAckedCursor(@TempDir Path metaDir) {
        List<dev.canal.protocol.CanalEntry.Entry> first = TestEntries.transaction(100, 2); // 100..103
        List<dev.canal.protocol.CanalEntry.Entry> second = TestEntries.transaction(104, 2); // 104..107
        server = RunningServer.with(ServerConfig.open(0), StoreConfig.itemSize(64),
                () -> new FileMixedMetaManager(metaDir), true);
        server.instance.put(first);
        server.instance.put(second);
        connector = connect("", "");
        connector.subscribe("test\\..*");
        Message acked = connector.getWithoutAck(4);
        connector.ack(acked.getId());
        connector.getWithoutAck(4); // handed out, never acked: must come again after the restart
        connector.disconnect();
        connector = null;
        server.close();

        server = RunningServer.with(ServerConfig.open(0), StoreConfig.itemSize(64),
                () -> new FileMixedMetaManager(metaDir), true);
        LogPosition cursor = server.instance.getMetaManager().getCursor(OFFICIAL_CLIENT);
        assertThat(cursor.position().journalName()).isEqualTo(TestEntries.JOURNAL);
        assertThat(cursor.position().position()).isEqualTo(103L);
        assertThat(server.instance.getMetaManager().listAllSubscribeInfo(DESTINATION))
                .extracting(ClientIdentity::filter).containsExactly("test\\..*");
        // the parser restarts after the cursor, so the store refills from the first unacked transaction
        server.instance.put(second);
        subscribeWithoutCredentials();
        Message resumed = connector.getWithoutAck(100);

        assertThat(acked.getEntries()).extracting(e -> e.getHeader().getLogfileOffset())
                .containsExactly(100L, 101L, 102L, 103L);
        assertThat(resumed.getEntries()).extracting(e -> e.getHeader().getLogfileOffset())
                .containsExactly(104L, 105L, 106L, 107L);
        assertThat(resumed.getId()).isEqualTo(1); // batch ids are not persisted
    }

    private CanalConnector connect(String user, String password) {
        CanalConnector connected = connectorFor(user, password);
        connected.connect();
        return connected;
    }

    private CanalConnector connectorFor(String user, String password) {
        return CanalConnectors.newSingleConnector(new InetSocketAddress("127.0.0.1", server.port()), DESTINATION,
                user, password);
    }
}
