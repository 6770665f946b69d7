package dev.canal.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.client.CanalConnectors;
import com.alibaba.otter.canal.protocol.Message;
import dev.canal.instance.CanalInstance;
import dev.canal.instance.TestInstance;
import dev.canal.server.EmbeddedCanalServer;
import dev.canal.server.TestEntries;
import dev.canal.server.netty.CanalNettyServer;
import dev.canal.server.ServerConfig;
import dev.canal.store.StoreConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The official Canal client ({@code com.alibaba.otter:canal.client}) talks to our TCP server while the exporter
 * is scraped over HTTP: the client series count its requests, and the store series follow its gets and acks.
 */
@Tag("source-independent")
class ClientMetricsExportIT {

    private static final String DESTINATION = "example";
    private static final String[] DEST = {"destination", DESTINATION};

    private final ClientMetrics clients = new ClientMetrics();
    private TestInstance instance;
    private EmbeddedCanalServer embedded;
    private CanalNettyServer tcp;
    private PrometheusExporter exporter;
    private CanalConnector connector;

    @BeforeEach
    void start() {
        instance = TestInstance.withSink(DESTINATION, StoreConfig.itemSize(1024));
        embedded = new EmbeddedCanalServer(destination -> {
            if (!destination.equals(DESTINATION)) {
                throw new IllegalArgumentException("no destination " + destination);
            }
            return instance;
        });
        embedded.start();
        exporter = PrometheusExporter.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), embedded,
                clients, CanalInstance::getEventSink, System::currentTimeMillis);
        embedded.start(DESTINATION);
        tcp = new CanalNettyServer(ServerConfig.open(0), embedded, clients);
        tcp.start();
        connector = CanalConnectors.newSingleConnector(new InetSocketAddress("127.0.0.1", tcp.port()), DESTINATION,
                "", "");
        connector.connect();
    }

    @AfterEach
    void stop() {
        connector.disconnect();
        tcp.stop();
        exporter.stop();
        embedded.stop();
    }

    @Test
    void clientRequestsThroughTheTcpServerMoveTheClientAndStoreSeries() {
        connector.subscribe();
        // the server counts a request just after sending its reply: wait until the last one has been counted
        Scrape subscribed = org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5))
                .until(() -> Scrape.of(exporter), s -> s.has("canal_instance_client_packets", "destination",
                        DESTINATION, "packetType", "SUBSCRIPTION"));
        instance.parse(TestEntries.transaction(100, 2));
        Message batch = connector.getWithoutAck(100);
        connector.ack(batch.getId());
        Message empty = connector.getWithoutAck(100);
        Scrape afterAck = org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5))
                .until(() -> Scrape.of(exporter),
                        s -> s.value("canal_instance_client_request_latency_count", DEST) >= 5.0);

        assertThat(batch.getEntries()).hasSize(4);
        assertThat(empty.getId()).isEqualTo(-1);
        assertThat(subscribed.value("canal_instance_subscriptions", DEST)).isEqualTo(1.0);
        assertThat(subscribed.value("canal_instance_client_packets", "destination", DESTINATION, "packetType",
                "SUBSCRIPTION")).isEqualTo(1.0);
        assertThat(subscribed.value("canal_instance_client_packets", "destination", DESTINATION, "packetType",
                "CLIENTROLLBACK")).as("the official client rolls back when it connects").isEqualTo(1.0);
        assertThat(subscribed.has("canal_instance_client_packets", "destination", DESTINATION, "packetType", "GET"))
                .isFalse();

        assertThat(afterAck.value("canal_instance_client_packets", "destination", DESTINATION, "packetType",
                "GET")).as("only the non-empty get").isEqualTo(1.0);
        assertThat(afterAck.value("canal_instance_client_packets", "destination", DESTINATION, "packetType",
                "CLIENTACK")).isEqualTo(1.0);
        assertThat(afterAck.value("canal_instance_client_empty_batches", DEST)).isEqualTo(1.0);
        assertThat(afterAck.value("canal_instance_client_bytes", DEST))
                .isGreaterThan(subscribed.value("canal_instance_client_bytes", DEST));
        assertThat(afterAck.value("canal_instance_client_request_latency_count", DEST))
                .as("rollback, subscribe, two gets, ack").isEqualTo(5.0);
        assertThat(afterAck.value("canal_instance_client_request_latency_bucket", "destination", DESTINATION,
                "le", "+Inf")).isEqualTo(5.0);
        assertThat(afterAck.value("canal_instance_get_rows", DEST)).isEqualTo(2.0);
        assertThat(afterAck.value("canal_instance_ack_rows", DEST)).isEqualTo(2.0);
        assertThat(afterAck.value("canal_instance_store_consume_seq", DEST)).isEqualTo(3.0);
        assertThat(afterAck.value("canal_instance_transactions", DEST)).isEqualTo(1.0);
    }
}
