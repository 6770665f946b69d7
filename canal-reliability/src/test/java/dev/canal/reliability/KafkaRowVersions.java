package dev.canal.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A downstream consumer of {@link VersionWriter}'s rows in Kafka, as canal-json flat messages: reads every partition
 * of the topic from its start with the given isolation level, and keeps, per key, the versions in the order they
 * arrived.
 */
final class KafkaRowVersions implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<List<Integer>> received;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;
    private volatile long rows; // written by the reading thread only
    private volatile Throwable failure;

    KafkaRowVersions(String bootstrap, String topic, int partitions, String isolation, int keys) {
        this.received = IntStream.range(0, keys).mapToObj(k -> (List<Integer>) new ArrayList<Integer>()).toList();
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class));
        List<TopicPartition> assigned = IntStream.range(0, partitions).mapToObj(p -> new TopicPartition(topic, p))
                .toList();
        consumer.assign(assigned);
        consumer.seekToBeginning(assigned);
        this.thread = new Thread(() -> read(consumer), "kafka-rows-" + isolation);
        thread.setDaemon(true);
        thread.start();
    }

    private void read(KafkaConsumer<byte[], byte[]> consumer) {
        try (consumer) {
            while (running.get()) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    take(JSON.readTree(record.value()));
                }
            }
        } catch (IOException | RuntimeException e) {
            failure = e;
        }
    }

    /** The rows of an INSERT or UPDATE message of table t; other messages (a source's QUERY annotations) carry none. */
    private void take(JsonNode message) {
        String type = message.path("type").asText();
        if (!"t".equals(message.path("table").asText()) || !(type.equals("INSERT") || type.equals("UPDATE"))) {
            return;
        }
        synchronized (this) {
            for (JsonNode row : message.get("data")) {
                received.get(row.get("id").asInt()).add(row.get("v").asInt());
                rows++;
            }
        }
    }

    long rows() {
        if (failure != null) {
            throw new UncheckedIOException(new IOException("the Kafka consumer failed", failure));
        }
        return rows;
    }

    /** What arrived, compared with what was written: rows missing, rows twice, keys out of order. */
    synchronized Delivery compare(int[] written) {
        long lost = 0;
        long duplicates = 0;
        int outOfOrder = 0;
        for (int key = 0; key < written.length; key++) {
            List<Integer> versions = received.get(key);
            boolean[] seen = new boolean[written[key] + 1];
            int last = 0;
            boolean ordered = true;
            for (int version : versions) {
                if (version > written[key] || seen[version]) {
                    duplicates++;
                } else {
                    seen[version] = true;
                }
                ordered &= version > last;
                last = Math.max(last, version);
            }
            for (int version = 1; version <= written[key]; version++) {
                lost += seen[version] ? 0 : 1;
            }
            outOfOrder += ordered ? 0 : 1;
        }
        return new Delivery(rows, lost, duplicates, outOfOrder);
    }

    /** @param keysOutOfOrder keys whose versions did not arrive in increasing order */
    record Delivery(long received, long lost, long duplicates, int keysOutOfOrder) {
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join(TimeUnit.SECONDS.toMillis(10));
    }
}
