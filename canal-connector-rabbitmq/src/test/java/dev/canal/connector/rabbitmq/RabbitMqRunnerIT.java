package dev.canal.connector.rabbitmq;

import static dev.canal.connector.mq.TestRows.id;
import static dev.canal.connector.mq.TestRows.name;
import static dev.canal.connector.mq.TestRows.row;
import static dev.canal.connector.mq.TestRows.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.GetResponse;
import dev.canal.connector.mq.CanalFormatSample;
import dev.canal.connector.mq.CountingProducer;
import dev.canal.connector.mq.MqPipeline;
import dev.canal.connector.mq.MqProducer;
import dev.canal.connector.mq.RunnerSamples;
import dev.canal.connector.mq.TestRows;
import dev.canal.protocol.position.LogPosition;
import dev.canal.store.StoreConfig;
import dev.canal.testsupport.RabbitMqBroker;
import dev.canal.testsupport.RabbitMqBrokerExtension;
import dev.canal.testsupport.TestProperties;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** RabbitMQ mode against a private rabbitmq-server: what lands in the queues, and when batches are acked. */
@Tag("source-independent")
@ExtendWith(RabbitMqBrokerExtension.class)
class RabbitMqRunnerIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static RabbitMqBroker broker;

    @BeforeAll
    static void broker(RabbitMqBroker started) {
        broker = started;
    }

    private static RabbitMqProducer producer(String... keyValues) {
        var properties = TestProperties.of(keyValues);
        properties.setProperty("rabbitmq.host", broker.address());
        return new RabbitMqProducer(RabbitMqConfig.from(properties), Duration.ofSeconds(1));
    }

    private static MqPipeline pipeline(String destination, boolean raw, MqProducer producer) {
        return new MqPipeline(destination, StoreConfig.itemSize(1024).withRaw(raw),
                new RabbitMqMode(), producer);
    }

    private static List<String> bodies(List<GetResponse> messages) {
        return messages.stream().map(m -> new String(m.getBody(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void flatMessagesArriveByteExactAsCanalJsonPersistentAndTheBatchIsAckedAfterTheirConfirms() throws Exception {
        long from = System.currentTimeMillis();
        try (MqPipeline p = pipeline("flat", false, producer("rabbitmq.exchange", "canal.flat", "rabbitmq.queue",
                "flat_q", "rabbitmq.routingKey", "flat_rows", "rabbitmq.deliveryMode", "direct"))) {
            CanalFormatSample.transactions().forEach(p::put);
            p.start(MqPipeline.mqConfig("canal.mq.topic", "flat_rows"));

            List<GetResponse> messages = QueueReader.read(broker, "flat_q", 4, WAIT);

            assertThat(CanalFormatSample.withoutTs(bodies(messages), from, System.currentTimeMillis()))
                    .containsExactlyElementsOf(CanalFormatSample.flatJson());
            assertThat(messages).allSatisfy(m -> {
                assertThat(m.getProps().getDeliveryMode()).as("persistent").isEqualTo(2);
                assertThat(m.getProps().getContentType()).isEqualTo("text/plain");
                assertThat(m.getEnvelope().getExchange()).isEqualTo("canal.flat");
                assertThat(m.getEnvelope().getRoutingKey()).isEqualTo("flat_rows");
            });
            await().atMost(WAIT).until(() -> p.cursor() != null
                    && p.cursor().position().position() == CanalFormatSample.LAST_OFFSET);
        }
    }

    @Test
    void rawProtobufBatchIsOnePacketTheOfficialClassesDecodeOnTheDefaultExchange() throws Exception {
        try (MqPipeline p = pipeline("proto", true, producer("rabbitmq.queue", "proto_raw"))) {
            RunnerSamples.startRawBatch(p, "proto_raw");

            List<GetResponse> messages = QueueReader.read(broker, "proto_raw", 1, WAIT);

            RunnerSamples.assertOnePacketOfOneTransaction(messages.stream().map(GetResponse::getBody).toList());
        }
    }

    @Test
    void dynamicTopicsRouteEachTableToItsOwnRoutingKey() throws Exception {
        QueueReader.bind(broker, "canal.dyn", "orders_q", "shop_orders");
        QueueReader.bind(broker, "canal.dyn", "items_q", "shop_items");
        QueueReader.bind(broker, "canal.dyn", "default_q", "dyn_default");
        try (MqPipeline p = pipeline("dyn", false, producer("rabbitmq.exchange", "canal.dyn"))) {
            RunnerSamples.startDynamicTopics(p);

            Map<String, List<String>> idsByQueue = new TreeMap<>();
            for (var queue : Map.of("orders_q", 2, "items_q", 1, "default_q", 1).entrySet()) {
                for (GetResponse m : QueueReader.read(broker, queue.getKey(), queue.getValue(), WAIT)) {
                    idsByQueue.computeIfAbsent(queue.getKey(), q -> new ArrayList<>())
                            .add(RunnerSamples.firstId(m.getBody()));
                }
            }

            assertThat(idsByQueue).containsExactlyInAnyOrderEntriesOf(Map.of(
                    "orders_q", List.of("1", "4"), "items_q", List.of("2"), "default_q", List.of("3")));
        }
    }

    @Test
    void partitionHashIsIgnoredAsInCanalSoEachRowEntryIsOneMessageAndEveryKeyKeepsItsOrder() throws Exception {
        int keys = 6;
        int versions = 4;
        try (MqPipeline p = pipeline("hash", false, producer("rabbitmq.queue", "hashed"))) {
            RunnerSamples.startKeyVersions(p, "hashed", 3, keys, versions);

            List<String> bodies = bodies(QueueReader.read(broker, "hashed", versions, WAIT));

            assertThat(bodies).as("one message per row entry, not one per partition").hasSize(versions);
            Map<String, List<String>> namesByKey = new TreeMap<>();
            for (String body : bodies) {
                JsonNode data = JSON.readTree(body).get("data");
                assertThat(data).hasSize(keys);
                data.forEach(r -> namesByKey.computeIfAbsent(r.get("id").asText(), k -> new ArrayList<>())
                        .add(r.get("name").asText()));
            }
            RunnerSamples.assertEachKeyInOrder(namesByKey, keys, versions);
        }
    }

    @Test
    void aMessageNoQueueTakesIsDroppedByTheBrokerAndItsBatchAckedAsInCanal() throws Exception {
        try (MqPipeline p = pipeline("dropped", false, producer("rabbitmq.exchange", "canal.dropped"))) {
            QueueReader.bind(broker, "canal.dropped", "dropped_q", "kept_rows");
            p.put(TestRows.transaction(10, List.of(TestRows.insert(11, "test", "user", List.of(List.of(id(1)))))));
            p.start(MqPipeline.mqConfig("canal.mq.topic", "unbound_rows"));

            await().atMost(WAIT).until(() -> p.cursor() != null && p.cursor().position().position() == 12);
            assertThat(QueueReader.read(broker, "dropped_q", 0, Duration.ofSeconds(1))).isEmpty();
        }
    }

    @Test
    void withMandatoryAnUnroutableBatchIsRolledBackAndResentOnceAQueueIsBound() throws Exception {
        AtomicInteger failures = new AtomicInteger();
        try (MqPipeline p = pipeline("unrouted", false, new CountingProducer(producer("rabbitmq.exchange",
                "canal.late", "rabbitmq.mandatory", "true"), failures))) {
            QueueReader.bind(broker, "canal.late", "unrelated_q", "something_else");
            p.put(TestRows.transaction(10, List.of(TestRows.insert(11, "test", "user", List.of(List.of(id(1)))))));
            p.put(TestRows.transaction(20, List.of(TestRows.insert(21, "test", "user", List.of(List.of(id(2)))))));
            p.start(MqPipeline.mqConfig("canal.mq.topic", "late_rows"));
            await().atMost(WAIT).until(p::subscribed);
            LogPosition subscribedAt = p.cursor();

            await().atMost(WAIT).until(() -> failures.get() >= 2);
            assertThat(p.cursor()).as("nothing acked while no queue takes the messages").isEqualTo(subscribedAt);

            QueueReader.bind(broker, "canal.late", "late_q", "late_rows");
            List<GetResponse> messages = QueueReader.read(broker, "late_q", 2, WAIT);

            assertThat(bodies(messages)).extracting(s -> s.replaceAll(".*\"data\":\\[\\{\"id\":\"(\\d+)\".*", "$1"))
                    .containsExactly("1", "2");
            await().atMost(WAIT).until(() -> p.cursor() != null && p.cursor().position().position() == 22);
        }
    }
}
