package dev.canal.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.instance.CanalInstance;
import dev.canal.instance.TestInstance;
import dev.canal.meta.MemoryMetaManager;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EntryType;
import dev.canal.protocol.CanalEntry.EventType;
import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.Message;
import dev.canal.server.EmbeddedCanalServer;
import dev.canal.server.TestEntries;
import dev.canal.store.StoreConfig;
import dev.canal.testsupport.TcpPorts;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The exporter scraped over HTTP while a real embedded server runs an instance whose entries go through a real
 * sink into a real memory store, and a client subscribes, gets and acks through the embedded API.
 */
class PrometheusExporterTest {

    private static final String DESTINATION = "example";
    private static final String[] DEST = {"destination", DESTINATION};
    private static final ClientIdentity CLIENT = new ClientIdentity(DESTINATION, (short) 1001);
    /** Scrape time in ms; the test entries' event times are their offset × 1000. */
    private static final long NOW = 1_000_000;

    private final AtomicLong clock = new AtomicLong(NOW);
    private final ClientMetrics clients = new ClientMetrics();
    private TestInstance instance;
    private EmbeddedCanalServer server;
    private PrometheusExporter exporter;

    @AfterEach
    void stopAll() {
        if (exporter != null) {
            exporter.stop();
        }
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void storeSequencesRowsAndDelaysMoveAsEntriesArePutGotAndAcked() {
        start(StoreConfig.itemSize(64));
        instance.parse(TestEntries.transaction(100, 2)); // offsets 100..103: BEGIN, 2 rows, END

        Scrape afterPut = Scrape.of(exporter);
        server.subscribe(CLIENT);
        Message batch = server.getWithoutAck(CLIENT, 10);
        Scrape afterGet = Scrape.of(exporter);
        server.ack(CLIENT, batch.id());
        Scrape afterAck = Scrape.of(exporter);

        assertThat(afterPut.value("canal_instance_store_produce_seq", DEST)).isEqualTo(3.0);
        assertThat(afterPut.value("canal_instance_store_consume_seq", DEST)).isEqualTo(-1.0);
        assertThat(afterPut.value("canal_instance_put_rows", DEST)).isEqualTo(2.0);
        assertThat(afterPut.value("canal_instance_get_rows", DEST)).isEqualTo(0.0);
        assertThat(afterPut.value("canal_instance_put_delay", DEST)).isEqualTo(NOW - 103_000.0);
        assertThat(afterPut.has("canal_instance_get_delay", DEST)).as("no event got yet").isFalse();

        assertThat(afterGet.value("canal_instance_get_rows", DEST)).isEqualTo(2.0);
        assertThat(afterGet.value("canal_instance_get_delay", DEST)).isEqualTo(NOW - 103_000.0);
        assertThat(afterGet.value("canal_instance_ack_rows", DEST)).isEqualTo(0.0);
        assertThat(afterGet.has("canal_instance_ack_delay", DEST)).isFalse();

        assertThat(afterAck.value("canal_instance_ack_rows", DEST)).isEqualTo(2.0);
        assertThat(afterAck.value("canal_instance_store_consume_seq", DEST)).isEqualTo(3.0);
        assertThat(afterAck.value("canal_instance_ack_delay", DEST)).isEqualTo(NOW - 103_000.0);
        assertThat(afterAck.value("canal_instance_sink_blocking_time", DEST)).isEqualTo(0.0);
    }

    @Test
    void instanceSeriesCarryCanalsNamesAndLabels() {
        start(StoreConfig.itemSize(64));
        Scrape before = Scrape.of(exporter);
        server.subscribe(CLIENT);
        instance.parse(TestEntries.transaction(100, 1));
        Scrape after = Scrape.of(exporter);

        assertThat(before.value("canal_instance", "destination", DESTINATION, "mode", "spring")).isEqualTo(1.0);
        assertThat(before.value("canal_instance_store", "destination", DESTINATION, "batchMode", "ITEMSIZE",
                "size", "64")).isEqualTo(1.0);
        assertThat(before.value("canal_instance_subscriptions", DEST)).isEqualTo(0.0);
        assertThat(after.value("canal_instance_subscriptions", DEST)).isEqualTo(1.0);
        assertThat(after.text()).contains("# TYPE canal_instance_transactions counter\n",
                "\ncanal_instance_transactions{destination=\"example\"} 1.0\n",
                "# TYPE canal_instance_put_delay gauge\n").doesNotContain("canal_instance_transactions_total");
        assertThat(after.seriesOf("canal_instance_store_produce_mem")).as("ITEMSIZE has no byte counters")
                .isEmpty();
    }

    @Test
    void memsizeStoreExportsProducedAndConsumedBytes() {
        start(StoreConfig.defaults()); // MEMSIZE, raw
        instance.parse(TestEntries.transaction(100, 2));
        server.subscribe(CLIENT);
        Message batch = server.getWithoutAck(CLIENT, 10);
        Scrape beforeAck = Scrape.of(exporter);
        server.ack(CLIENT, batch.id());
        Scrape afterAck = Scrape.of(exporter);

        long bytes = batch.rawEntries().stream().mapToLong(b -> b.size()).sum();
        assertThat(beforeAck.value("canal_instance_store", "destination", DESTINATION, "batchMode", "MEMSIZE",
                "size", "16384")).isEqualTo(1.0);
        assertThat(beforeAck.value("canal_instance_store_produce_mem", DEST)).isEqualTo((double) bytes);
        assertThat(beforeAck.value("canal_instance_store_consume_mem", DEST)).isEqualTo(0.0);
        assertThat(afterAck.value("canal_instance_store_consume_mem", DEST)).isEqualTo((double) bytes);
    }

    @Test
    void transactionsAndTrafficDelayFollowWhatTheSinkSeesHeartbeatsIncluded() {
        start(StoreConfig.itemSize(64));
        Scrape idle = Scrape.of(exporter);
        instance.parse(TestEntries.transaction(100, 1));
        instance.parse(TestEntries.transaction(103, 2)); // its END at offset 106
        Scrape afterTwo = Scrape.of(exporter);
        clock.set(NOW + 5_000);
        instance.parse(List.of(masterHeartbeat(200)));
        Scrape afterHeartbeat = Scrape.of(exporter);

        assertThat(idle.value("canal_instance_transactions", DEST)).isEqualTo(0.0);
        assertThat(idle.has("canal_instance_traffic_delay", DEST)).as("no event seen yet").isFalse();
        assertThat(afterTwo.value("canal_instance_transactions", DEST)).isEqualTo(2.0);
        assertThat(afterTwo.value("canal_instance_traffic_delay", DEST)).isEqualTo(NOW - 106_000.0);
        assertThat(afterHeartbeat.value("canal_instance_traffic_delay", DEST)).as("a master heartbeat is now")
                .isEqualTo(0.0);
        assertThat(afterHeartbeat.value("canal_instance_store_produce_seq", DEST)).as("heartbeats are not stored")
                .isEqualTo(afterTwo.value("canal_instance_store_produce_seq", DEST));
    }

    @Test
    void aStoppedInstanceLeavesTheScrapeAndItsSinkLosesTheHandler() {
        start(StoreConfig.itemSize(64));
        assertThat(instance.getEventSink().handlers()).hasSize(1);

        server.stop(DESTINATION);
        Scrape scrape = Scrape.of(exporter);

        assertThat(scrape.seriesOf("canal_instance")).isEmpty();
        assertThat(scrape.seriesOf("canal_instance_store_produce_seq")).isEmpty();
        assertThat(instance.getEventSink().handlers()).isEmpty();
    }

    @Test
    void anExporterStartedAfterTheInstanceFollowsItAndStoppingRemovesOnlyItsOwnHandler() {
        start(StoreConfig.itemSize(64));
        PrometheusExporter late = PrometheusExporter.bind(loopback(0), server, clients, CanalInstance::getEventSink,
                clock::get);
        try {
            instance.parse(TestEntries.transaction(100, 1));
            Scrape scrape = Scrape.of(late);

            assertThat(scrape.value("canal_instance_transactions", DEST)).isEqualTo(1.0);
            assertThat(instance.getEventSink().handlers()).hasSize(2);
        } finally {
            late.stop();
        }
        assertThat(instance.getEventSink().handlers()).hasSize(1);
        assertThat(Scrape.of(exporter).value("canal_instance_transactions", DEST)).isEqualTo(1.0);
    }

    @Test
    void unreadableSubscriptionsLeaveOnlyThatSeriesOutUntilTheyAreReadableAgain() {
        UnreachableMeta meta = new UnreachableMeta();
        start(TestInstance.withSink(DESTINATION, StoreConfig.itemSize(64), meta));

        meta.unreachable = true;
        Scrape failing = Scrape.of(exporter);
        meta.unreachable = false;
        Scrape recovered = Scrape.of(exporter);

        assertThat(failing.has("canal_instance_subscriptions", DEST)).isFalse();
        assertThat(failing.value("canal_instance_store_produce_seq", DEST)).isEqualTo(-1.0);
        assertThat(recovered.value("canal_instance_subscriptions", DEST)).isEqualTo(0.0);
    }

    @Test
    void everyPathReturnsTheExposition() {
        start(StoreConfig.itemSize(64));

        assertThat(Scrape.of(exporter.port(), "/").seriesOf("canal_instance")).hasSize(1);
        assertThat(Scrape.of(exporter.port(), "/anything/else?x=1").seriesOf("canal_instance")).hasSize(1);
    }

    @Test
    void clientCountersBecomeCanalsClientSeriesWithCumulativeLatencyBuckets() {
        start(StoreConfig.itemSize(64));
        DestinationClientMetrics counters = clients.of(DESTINATION);
        counters.packet("GET");
        counters.packet("GET");
        counters.packet("SUBSCRIPTION");
        counters.bytesSent(120);
        counters.emptyBatch();
        counters.error(400);
        counters.latency(3_000_000); // 3 ms
        counters.latency(50_000_000); // 50 ms
        clients.of("127.0.0.1:5555").error(400); // Canal labels some errors with the client's address

        Scrape scrape = Scrape.of(exporter);

        assertThat(scrape.value("canal_instance_client_packets", "destination", DESTINATION, "packetType", "GET"))
                .isEqualTo(2.0);
        assertThat(scrape.value("canal_instance_client_packets", "destination", DESTINATION, "packetType",
                "SUBSCRIPTION")).isEqualTo(1.0);
        assertThat(scrape.value("canal_instance_client_bytes", DEST)).isEqualTo(120.0);
        assertThat(scrape.value("canal_instance_client_empty_batches", DEST)).isEqualTo(1.0);
        assertThat(scrape.value("canal_instance_client_request_error", "destination", DESTINATION, "errorCode",
                "400")).isEqualTo(1.0);
        assertThat(scrape.value("canal_instance_client_request_error", "destination", "127.0.0.1:5555",
                "errorCode", "400")).isEqualTo(1.0);
        String latency = "canal_instance_client_request_latency";
        assertThat(List.of("2.5", "10.0", "25.0", "100.0", "+Inf"))
                .extracting(le -> scrape.value(latency + "_bucket", "destination", DESTINATION, "le", le))
                .containsExactly(0.0, 1.0, 1.0, 2.0, 2.0);
        assertThat(scrape.value(latency + "_count", DEST)).isEqualTo(2.0);
        assertThat(scrape.value(latency + "_sum", DEST)).isEqualTo(53.0);
        assertThat(scrape.text()).contains("# TYPE " + latency + " histogram\n");
    }

    @Test
    void jvmMetricsAreIncluded() {
        start(StoreConfig.itemSize(64));

        Scrape scrape = Scrape.of(exporter);

        assertThat(scrape.value("jvm_memory_bytes_used", "area", "heap")).isPositive();
        assertThat(scrape.value("jvm_threads_current")).isPositive();
        assertThat(scrape.value("jvm_classes_loaded")).isPositive();
        assertThat(scrape.seriesOf("jvm_gc_collection_seconds_count")).isNotEmpty();
        assertThat(scrape.seriesOf("jvm_memory_pool_bytes_used")).isNotEmpty();
    }

    @Test
    void aPortOfZeroOrBelowDisablesTheExporter() {
        start(StoreConfig.itemSize(64));

        for (int port : new int[] {0, -1}) {
            PrometheusExporter disabled = PrometheusExporter.start("", port, server, clients,
                    CanalInstance::getEventSink);
            assertThat(disabled.port()).isEqualTo(-1);
            disabled.stop();
        }
        assertThat(instance.getEventSink().handlers()).as("a disabled exporter hooks nothing").hasSize(1);
    }

    @Test
    void aConnectionThatSendsHalfARequestStallsNoOtherScrape() throws Exception {
        start(StoreConfig.itemSize(64));
        try (Socket slow = new Socket(InetAddress.getLoopbackAddress(), exporter.port())) {
            slow.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: canal\r\n".getBytes(StandardCharsets.US_ASCII));
            slow.getOutputStream().flush(); // and never the blank line that ends the request

            for (int i = 0; i < 3; i++) {
                assertThat(Scrape.of(exporter).seriesOf("jvm_memory_pool_bytes_used")).isNotEmpty();
            }
        }
    }

    @Test
    void theEndpointListensOnTheChosenAddressOnly() throws Exception {
        start(StoreConfig.itemSize(64));
        int port = TcpPorts.free();
        PrometheusExporter bound = PrometheusExporter.start("127.0.0.2", port, server, clients,
                CanalInstance::getEventSink);
        try {
            try (Socket other = new Socket()) {
                assertThatThrownBy(() -> other.connect(new InetSocketAddress("127.0.0.1", port), 2000))
                        .isInstanceOf(ConnectException.class);
            }
            try (Socket chosen = new Socket("127.0.0.2", port)) {
                chosen.getOutputStream().write("GET /metrics HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                String answer = new String(chosen.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(answer).startsWith("HTTP/1.1 200").contains("jvm_memory_pool_bytes_used");
            }
        } finally {
            bound.stop();
        }
    }

    @Test
    void aPortInUseFailsNamingTheKey() {
        start(StoreConfig.itemSize(64));

        assertThatThrownBy(() -> PrometheusExporter.bind(loopback(exporter.port()), server, clients,
                CanalInstance::getEventSink, clock::get))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(PrometheusExporter.PORT.name())
                .hasMessageContaining(Integer.toString(exporter.port()));
    }

    private void start(StoreConfig storeConfig) {
        start(TestInstance.withSink(DESTINATION, storeConfig));
    }

    private void start(TestInstance testInstance) {
        instance = testInstance;
        server = new EmbeddedCanalServer(destination -> {
            if (!destination.equals(DESTINATION)) {
                throw new IllegalArgumentException("no destination " + destination);
            }
            return instance;
        });
        server.start();
        exporter = PrometheusExporter.bind(loopback(0), server, clients, CanalInstance::getEventSink, clock::get);
        server.start(DESTINATION);
    }

    /** What the parser makes of a master's heartbeat: a HEARTBEAT entry of event type MHEARTBEAT. */
    private static CanalEntry.Entry masterHeartbeat(long offset) {
        CanalEntry.Entry entry = TestEntries.entry(offset, EntryType.HEARTBEAT, EventType.MHEARTBEAT);
        return entry.toBuilder().setHeader(entry.getHeader().toBuilder().setEventType(EventType.MHEARTBEAT)).build();
    }

    private static InetSocketAddress loopback(int port) {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    /** A meta manager whose subscription list can fail, as a ZooKeeper one does while ZooKeeper is away. */
    private static final class UnreachableMeta extends MemoryMetaManager {

        volatile boolean unreachable;

        @Override
        public List<ClientIdentity> listAllSubscribeInfo(String destination) {
            if (unreachable) {
                throw new IllegalStateException("ZooKeeper unreachable");
            }
            return super.listAllSubscribeInfo(destination);
        }
    }
}
