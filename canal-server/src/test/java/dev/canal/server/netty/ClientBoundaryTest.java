package dev.canal.server.netty;

import static dev.canal.server.netty.RunningServer.DESTINATION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import dev.canal.meta.MemoryMetaManager;
import dev.canal.protocol.CanalPacket;
import dev.canal.protocol.CanalPacket.PacketType;
import dev.canal.protocol.ClientIdentity;
import dev.canal.server.ClientLimits;
import dev.canal.server.ServerConfig;
import dev.canal.server.TestEntries;
import dev.canal.store.StoreConfig;
import dev.canal.testsupport.LogCapture;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a careless or hostile client gets from the client port once logged in: names that are not deployed
 * destinations, filters that are no regular expressions or too long, mistakes answered in one line, failures of the
 * server that tell it nothing, and a client that never reads its replies (docs/security.md).
 */
class ClientBoundaryTest {

    private static final String NO_TRACE = "\tat ";

    @AutoClose
    private RunningServer server;

    @ParameterizedTest
    @ValueSource(strings = {"../../tmp/evil", "/etc/canal", "example/../other", "other", "other@billing",
            "example@../x"})
    void aNameThatIsNoDeployedDestinationIsRefusedBeforeItReachesTheServerOrAMetricLabel(String name)
            throws Exception {
        server = RunningServer.open();
        try (WireClient client = WireClient.authenticated(server.port())) {
            client.subscribe(name, "1001", "");
            CanalPacket.Ack refused = client.readAck();
            client.get(name, 10, -1);
            CanalPacket.Ack refusedGet = client.readAck();

            assertThat(refused.getErrorCode()).isEqualTo(400);
            assertThat(refused.getErrorMessage()).containsAnyOf("is not a valid name", "is not deployed on this server")
                    .doesNotContain(NO_TRACE);
            assertThat(refusedGet.getErrorMessage()).containsAnyOf("is not a valid name", "is not deployed");
            assertThat(server.metrics.all().keySet()).noneMatch(label -> label.contains("other")
                    || label.contains("/") || label.contains(".."));
            assertThat(server.embedded.isStart(DESTINATION)).isTrue();
        }
    }

    @Test
    void aNamedConsumerOfTheDeployedDestinationIsStillServed() throws Exception {
        server = RunningServer.open();
        server.instance.put(TestEntries.transaction(100, 1));
        try (WireClient client = WireClient.authenticated(server.port())) {
            client.subscribe(DESTINATION + "@billing", "1001", "");
            assertThat(client.readAck().getErrorCode()).isZero();
            client.get(DESTINATION + "@billing", 10, -1);
            assertThat(client.readMessages().getMessagesList()).hasSize(3);
        }
    }

    @Test
    void aFilterThatIsNoRegularExpressionIsRefusedAndNothingOfItIsKept() throws Exception {
        server = RunningServer.open();
        try (WireClient client = WireClient.authenticated(server.port())) {
            client.subscribe(DESTINATION, "1001", "shop\\.(orders");
            CanalPacket.Ack refused = client.readAck();

            assertThat(refused.getErrorCode()).isEqualTo(400);
            assertThat(refused.getErrorMessage()).contains("the filter is not a valid regular expression: Unclosed group")
                    .doesNotContain(NO_TRACE);
            assertThat(server.instance.getMetaManager().listAllSubscribeInfo(DESTINATION)).isEmpty();
            assertThat(server.instance.appliedFilters()).isEmpty();
        }
    }

    @Test
    void aFilterLongerThanTheCapIsRefused() throws Exception {
        server = RunningServer.with(ServerConfig.open(0).withLimits(ClientLimits.defaults().withMaxFilterLength(100)));
        try (WireClient client = WireClient.authenticated(server.port())) {
            client.subscribe(DESTINATION, "1001", "shop\\.t" + "x".repeat(100));
            CanalPacket.Ack refused = client.readAck();
            client.subscribe(DESTINATION, "1001", "shop\\..*");
            CanalPacket.Ack accepted = client.readAck();

            assertThat(refused.getErrorMessage()).contains("107 characters", "more than the 100",
                    ClientLimits.FILTER_MAX_LENGTH.name());
            assertThat(accepted.getErrorCode()).isZero();
        }
    }

    @Test
    void aClientMistakeGetsOneLineAndOneWarningPerBurst() throws Exception {
        server = RunningServer.open();
        try (LogCapture logs = LogCapture.attach(RequestProcessor.class.getName());
                WireClient client = WireClient.authenticated(server.port())) {
            client.subscribe(DESTINATION, "1001", "");
            client.readAck();
            CanalPacket.Ack first = null;
            for (int i = 0; i < 20; i++) {
                client.get(DESTINATION, 0, -1);
                CanalPacket.Ack refused = client.readAck();
                first = first == null ? refused : first;
            }

            assertThat(first.getErrorCode()).isEqualTo(400);
            assertThat(first.getErrorMessage()).startsWith("something goes wrong with channel: ")
                    .endsWith("exception: fetchSize must be positive, got 0").doesNotContain("\n");
            assertThat(logs.events()).singleElement().satisfies(event -> {
                assertThat(event.getLevel()).isEqualTo(Level.WARN);
                assertThat(event.getThrowableProxy()).isNull();
            });
        }
    }

    @Test
    void aFailureOfTheServerTellsTheClientNothingAndTheLogEverything() throws Exception {
        server = RunningServer.with(ServerConfig.open(0), StoreConfig.itemSize(64), FailingMeta::new, true);
        try (LogCapture logs = LogCapture.attach(RequestProcessor.class.getName());
                WireClient client = WireClient.authenticated(server.port())) {
            client.get(DESTINATION, 10, -1);
            CanalPacket.Ack failed = client.readAck();

            assertThat(failed.getErrorCode()).isEqualTo(400);
            assertThat(failed.getErrorMessage()).contains("the server failed to handle the GET request")
                    .doesNotContain(FailingMeta.DETAIL).doesNotContain(NO_TRACE);
            assertThat(logs.events()).singleElement().satisfies(event -> {
                assertThat(event.getLevel()).isEqualTo(Level.ERROR);
                assertThat(event.getThrowableProxy().getMessage()).contains(FailingMeta.DETAIL);
            });
        }
    }

    @Test
    void aClientThatNeverReadsIsNoLongerServedOnceItsRepliesPileUp() throws Exception {
        int writeBuffer = 64 * 1024;
        server = RunningServer.with(ServerConfig.open(0).withLimits(ClientLimits.defaults()
                .withOutputLimits(writeBuffer, 4L * writeBuffer)), StoreConfig.itemSize(4096), MemoryMetaManager::new,
                true);
        server.instance.put(TestEntries.transaction(100, 500));
        int pairs = 200_000;
        AtomicInteger sent = new AtomicInteger();
        try (WireClient client = WireClient.authenticated(server.port())) {
            client.subscribe(DESTINATION, "1001", "");
            client.readAck();
            Thread writer = new Thread(() -> {
                try {
                    for (int i = 0; i < pairs; i++) {
                        client.get(DESTINATION, 500, -1);
                        client.rollback(DESTINATION, 0);
                        sent.incrementAndGet();
                    }
                } catch (Exception closed) {
                    // the test closes the connection while this writer is blocked
                }
            }, "never-reading-client");
            writer.setDaemon(true);
            writer.start();

            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                    .until(() -> gets() > 0 && isStable());

            assertThat(sent.get()).as("the client's writes stall").isLessThan(pairs);
            assertThat(gets()).as("batches served to a client that reads none").isLessThan(pairs / 10);
            assertThat(server.embedded.isStart(DESTINATION)).isTrue();
        }
    }

    private long lastGets = -1;

    /** True when no GET was served since the previous call. */
    private boolean isStable() {
        long now = gets();
        boolean stable = now == lastGets;
        lastGets = now;
        return stable;
    }

    private long gets() {
        return server.metrics.of(DESTINATION).packets().getOrDefault(PacketType.GET.name(), 0L);
    }

    /** A meta manager that fails as a broken one would, with a detail only the server's log may show. */
    private static final class FailingMeta extends MemoryMetaManager {

        static final String DETAIL = "meta store at /var/lib/secret-host-17 unreachable";

        @Override
        public boolean hasSubscribe(ClientIdentity client) {
            throw new IllegalStateException(DETAIL);
        }
    }
}
