package dev.canal.connector.kafka;

import dev.canal.connector.mq.MqCursor;
import dev.canal.connector.mq.MqSendException;
import dev.canal.connector.mq.MqTransactionConfig;
import dev.canal.connector.mq.MqTransactionalProducer;
import dev.canal.connector.mq.MqTransactionalSession;
import dev.canal.protocol.config.ConfigValueException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exactly-once delivery into Kafka (docs/mq.md): per destination a transactional producer named
 * {@code <canal.mq.transaction.id.prefix><destination>} on every server, so that the one opened last fences the
 * others; each transaction carries the destination's messages and its cursor, a record keyed by the destination in
 * the compacted cursor topic ({@code canal.mq.transaction.cursor.topic}), which is created when missing and read
 * with {@code isolation.level=read_committed} when a destination opens.
 */
public final class KafkaTransactionalProducer implements MqTransactionalProducer {

    private static final Logger log = LoggerFactory.getLogger(KafkaTransactionalProducer.class);
    /** How long reading the cursor topic to its end may take. */
    private static final Duration READ_LIMIT = Duration.ofSeconds(60);
    /** Small segments, so that compaction keeps what a start reads small. */
    private static final String CURSOR_SEGMENT_BYTES = Integer.toString(8 * 1024 * 1024);
    /** The client settings the cursor topic's reader and admin share with the producer: where and how to connect. */
    private static final List<String> CONNECTION_PREFIXES = List.of("security.", "sasl.", "ssl.");

    private final KafkaProducerConfig producerConfig;
    private final MqTransactionConfig transactions;
    private final Map<String, Object> connection;
    private boolean cursorTopicChecked; // guarded by this

    /**
     * @throws ConfigValueException naming the key when the producer settings cannot carry transactions
     */
    public KafkaTransactionalProducer(KafkaProducerConfig producerConfig, MqTransactionConfig transactions) {
        this.producerConfig = producerConfig;
        this.transactions = transactions;
        Map<String, String> settings = producerConfig.producerProperties();
        String acks = settings.get(ProducerConfig.ACKS_CONFIG);
        if (!acks.equals("all") && !acks.equals("-1")) {
            throw ConfigValueException.invalid(KafkaProducerConfig.ACKS.name(), acks,
                    MqTransactionConfig.TRANSACTION.name() + "=true needs all: Kafka's transactions need every replica");
        }
        if (!Boolean.parseBoolean(settings.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG))) {
            throw ConfigValueException.invalid(KafkaProducerConfig.PREFIX + ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                    "false", MqTransactionConfig.TRANSACTION.name() + "=true needs the idempotent producer");
        }
        this.connection = new HashMap<>();
        settings.forEach((key, value) -> {
            if (key.equals(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG)
                    || CONNECTION_PREFIXES.stream().anyMatch(key::startsWith)) {
                connection.put(key, value);
            }
        });
    }

    @Override
    public MqTransactionalSession open(String destination) throws MqSendException, InterruptedException {
        ensureCursorTopic();
        Properties settings = producerConfig.toProperties();
        String transactionalId = transactions.transactionalId(destination);
        settings.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        KafkaProducer<byte[], byte[]> producer;
        try {
            producer = new KafkaProducer<>(settings);
        } catch (KafkaException e) {
            throw new IllegalArgumentException("invalid Kafka producer settings (kafka.* keys): " + e.getMessage(), e);
        }
        try {
            producer.initTransactions(); // fences every earlier producer of this id and ends what it left open
            Optional<MqCursor> committed = readCursor(destination);
            log.info("destination {}: transactional producer {} opened; committed cursor {}", destination,
                    transactionalId, committed.map(MqCursor::toString).orElse("none"));
            return new KafkaTransactionalSession(producer, destination, transactions.cursorTopic(), committed);
        } catch (KafkaException | IllegalArgumentException e) {
            producer.close(Duration.ZERO);
            throw new MqSendException("destination " + destination + ": cannot open transactional producer "
                    + transactionalId + " on Kafka (" + producerConfig.bootstrapServers() + "): " + e.getMessage(), e);
        } catch (MqSendException | RuntimeException e) {
            producer.close(Duration.ZERO);
            throw e;
        }
    }

    /** The cursor topic, created compacted when missing; one that is not compacted is warned about. */
    private synchronized void ensureCursorTopic() throws MqSendException, InterruptedException {
        if (cursorTopicChecked) {
            return;
        }
        String topic = transactions.cursorTopic();
        try (Admin admin = Admin.create(connection)) {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            try {
                Config config = admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource);
                String policy = config.get(TopicConfig.CLEANUP_POLICY_CONFIG).value();
                if (!Arrays.asList(policy.split(",")).contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
                    log.warn("the cursor topic {} ({}) has {}={}: cursors may be deleted; set it to compact", topic,
                            MqTransactionConfig.CURSOR_TOPIC.name(), TopicConfig.CLEANUP_POLICY_CONFIG, policy);
                }
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
                createCursorTopic(admin, topic);
            }
            cursorTopicChecked = true;
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new MqSendException("cannot check or create the cursor topic " + topic + " on Kafka ("
                    + producerConfig.bootstrapServers() + "): " + cause.getMessage(), cause);
        }
    }

    private static void createCursorTopic(Admin admin, String topic)
            throws ExecutionException, TimeoutException, InterruptedException {
        NewTopic created = new NewTopic(topic, Optional.of(1), Optional.empty()).configs(Map.of(
                TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                TopicConfig.SEGMENT_BYTES_CONFIG, CURSOR_SEGMENT_BYTES));
        try {
            admin.createTopics(List.of(created)).all().get(30, TimeUnit.SECONDS);
            log.info("created the cursor topic {} (cleanup.policy=compact)", topic);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
    }

    /** The destination's last committed cursor record, read to the end of the topic; empty when it has none. */
    private Optional<MqCursor> readCursor(String destination) throws MqSendException {
        String topic = transactions.cursorTopic();
        byte[] key = destination.getBytes(StandardCharsets.UTF_8);
        Map<String, Object> settings = new HashMap<>(connection);
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        settings.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        long deadline = System.nanoTime() + READ_LIMIT.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(settings)) {
            List<TopicPartition> partitions = partitions(consumer, topic, deadline);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, READ_LIMIT);
            ConsumerRecord<byte[], byte[]> last = null;
            while (!reachedEnd(consumer, ends)) {
                if (System.nanoTime() > deadline) {
                    throw new MqSendException("destination " + destination + ": the cursor topic " + topic
                            + " was not read to its end within " + READ_LIMIT, null);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (Arrays.equals(key, record.key())) {
                        last = record;
                    }
                }
            }
            if (last == null || last.value() == null) {
                return Optional.empty();
            }
            return Optional.of(MqCursor.parse(last.value(),
                    "cursor topic " + topic + "-" + last.partition() + "@" + last.offset()));
        } catch (KafkaException e) {
            throw new MqSendException("destination " + destination + ": cannot read the cursor topic " + topic
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * The cursor topic's partitions; a topic just created may take a moment to appear in the metadata, and reading no
     * partition would take a cursor that is there for none.
     */
    private static List<TopicPartition> partitions(KafkaConsumer<byte[], byte[]> consumer, String topic, long deadline)
            throws MqSendException {
        while (true) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, READ_LIMIT).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            if (!partitions.isEmpty()) {
                return partitions;
            }
            if (System.nanoTime() > deadline) {
                throw new MqSendException("the cursor topic " + topic + " has no partitions after " + READ_LIMIT,
                        null);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
        }
    }

    private static boolean reachedEnd(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> ends) {
        for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
            if (consumer.position(end.getKey()) < end.getValue()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        // each session owns its producer; nothing is shared but settings
    }
}
