package dev.canal.connector.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.connector.mq.BrokerRestartScenario;
import dev.canal.connector.mq.KeyVersions;
import dev.canal.testsupport.KafkaBroker;
import dev.canal.testsupport.KafkaBrokerExtension;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The broker dies mid-stream and comes back: every row arrives, none is lost, each key's changes keep their
 * order, and while the broker is away nothing is acked, so the store fills and blocks the writer.
 */
@Tag("source-independent")
@ExtendWith(KafkaBrokerExtension.class)
class BrokerRestartIT {

    private static final int PARTITIONS = 3;
    private static KafkaBroker broker;

    @BeforeAll
    static void broker(KafkaBroker started) {
        broker = started;
    }

    @Test
    void everyRowArrivesInKeyOrderAcrossABrokerRestart() throws Exception {
        broker.createTopic(BrokerRestartScenario.TOPIC, PARTITIONS);
        KafkaMqProducer kafka = new KafkaMqProducer(KafkaProducerConfig.from(Pipeline.producerProperties(broker,
                "kafka.delivery.timeout.ms", "3000", "kafka.request.timeout.ms", "1000", "kafka.max.block.ms", "2000",
                "kafka.reconnect.backoff.max.ms", "500")), Duration.ofSeconds(1));
        Map<Integer, Set<Integer>> partitionsByKey = new TreeMap<>();
        new BrokerRestartScenario("Kafka", new BrokerRestartScenario.Broker(broker::kill, broker::restart), kafka,
                new KafkaMode()).run(rows -> {
                    KeyVersions received = new KeyVersions();
                    for (ConsumerRecord<byte[], byte[]> r : TopicReader.read(broker.bootstrapServers(),
                            BrokerRestartScenario.TOPIC, PARTITIONS, rows, Duration.ofSeconds(30))) {
                        for (int key : received.add(r.value())) {
                            partitionsByKey.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(r.partition());
                        }
                    }
                    return received.byKey();
                }, "canal.mq.partitionsNum", Integer.toString(PARTITIONS), "canal.mq.partitionHash", "test.user:$pk$");
        for (int key = 0; key < BrokerRestartScenario.KEYS; key++) {
            assertThat(partitionsByKey.get(key)).as("key %d stays in one partition", key).hasSize(1);
        }
    }
}
