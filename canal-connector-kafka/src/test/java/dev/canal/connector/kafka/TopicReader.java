package dev.canal.connector.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Reads a topic's partitions from the beginning with a plain consumer (no group), as a downstream consumer would. */
final class TopicReader {

    private TopicReader() {
    }

    /** Every record of the partitions, waiting up to {@code timeout} until at least {@code expected} arrived. */
    static List<ConsumerRecord<byte[], byte[]>> read(String bootstrap, String topic, int partitions, int expected,
            Duration timeout) {
        List<TopicPartition> assigned = IntStream.range(0, partitions).mapToObj(p -> new TopicPartition(topic, p)).toList();
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class))) {
            consumer.assign(assigned);
            consumer.seekToBeginning(assigned);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (records.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            // one more short poll: more than expected would mean duplicates the test should see
            consumer.poll(Duration.ofMillis(300)).forEach(records::add);
        }
        return records;
    }
}
