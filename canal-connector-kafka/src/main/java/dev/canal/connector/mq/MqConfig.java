package dev.canal.connector.mq;

import dev.canal.protocol.config.TypedProperties;
import java.util.Objects;
import java.util.Properties;

/**
 * The MQ keys of one destination (canal-compat.md 7.2 and 7.3): server-wide {@code canal.mq.*} keys from
 * canal.properties, per-destination ones ({@code canal.mq.topic}, hashing, dynamic topics) from
 * instance.properties; the caller hands the merged properties. Rule strings are parsed here, so a bad item
 * stops start-up naming its key.
 *
 * @param topic                  {@code canal.mq.topic}: the default topic
 * @param dynamicTopic           {@code canal.mq.dynamicTopic} (8.5), empty when unused
 * @param partition              {@code canal.mq.partition}: the fixed partition when no hash is configured
 * @param partitionsNum          {@code canal.mq.partitionsNum}: partitions to hash over
 * @param partitionHash          {@code canal.mq.partitionHash} (8.4), empty when unused
 * @param topicPartitions        {@code canal.mq.dynamicTopicPartitionNum}: per-topic partition counts
 * @param flatMessage            {@code canal.mq.flatMessage}: JSON (8.2) rather than protobuf packets (8.3)
 * @param canalBatchSize         {@code canal.mq.canalBatchSize}: fetch size of one get
 * @param canalGetTimeoutMs      {@code canal.mq.canalGetTimeout}: ms one get waits (≤0: does not wait)
 * @param databaseHash           {@code canal.mq.database.hash}: the schema name seeds the row hash
 * @param sendThreadSize         {@code canal.mq.send.thread.size}: accepted for compatibility; the Kafka producer
 *                               sends asynchronously, so no thread pool of ours is needed
 * @param buildThreadSize        {@code canal.mq.build.thread.size}: threads that decode a batch's row changes
 * @param filterTransactionEntry {@code canal.instance.filter.transaction.entry}: BEGIN/END left out of protobuf
 *                               packets (8.1)
 */
public record MqConfig(String topic, DynamicTopicRules dynamicTopic, int partition, int partitionsNum,
        PartitionHashRules partitionHash,
        TopicPartitionCounts topicPartitions, boolean flatMessage, int canalBatchSize, long canalGetTimeoutMs,
        boolean databaseHash, int sendThreadSize, int buildThreadSize, boolean filterTransactionEntry) {

    public static final String TOPIC = "canal.mq.topic";
    public static final String DYNAMIC_TOPIC = "canal.mq.dynamicTopic";
    public static final String PARTITION = "canal.mq.partition";
    public static final String PARTITIONS_NUM = "canal.mq.partitionsNum";
    public static final String PARTITION_HASH = "canal.mq.partitionHash";
    public static final String DYNAMIC_TOPIC_PARTITION_NUM = "canal.mq.dynamicTopicPartitionNum";
    public static final String FLAT_MESSAGE = "canal.mq.flatMessage";
    public static final String CANAL_BATCH_SIZE = "canal.mq.canalBatchSize";
    public static final String CANAL_GET_TIMEOUT = "canal.mq.canalGetTimeout";
    public static final String DATABASE_HASH = "canal.mq.database.hash";
    public static final String SEND_THREAD_SIZE = "canal.mq.send.thread.size";
    public static final String BUILD_THREAD_SIZE = "canal.mq.build.thread.size";
    public static final String FILTER_TRANSACTION_ENTRY = "canal.instance.filter.transaction.entry";

    public MqConfig {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(dynamicTopic, "dynamicTopic");
        Objects.requireNonNull(partitionHash, "partitionHash");
        Objects.requireNonNull(topicPartitions, "topicPartitions");
        requireAtLeast(PARTITION, partition, 0);
        requireAtLeast(PARTITIONS_NUM, partitionsNum, 1);
        requireAtLeast(CANAL_BATCH_SIZE, canalBatchSize, 1);
        requireAtLeast(SEND_THREAD_SIZE, sendThreadSize, 1);
        requireAtLeast(BUILD_THREAD_SIZE, buildThreadSize, 1);
        if (topic.isBlank()) {
            throw new MqConfigException("missing value for " + TOPIC + ": the default topic is required");
        }
    }

    /** Reads the keys with Canal's defaults; fails naming the key of the first invalid value. */
    public static MqConfig from(Properties properties) {
        TypedProperties p = new TypedProperties(properties);
        try {
            return new MqConfig(
                    p.string(TOPIC, ""),
                    DynamicTopicRules.parse(DYNAMIC_TOPIC, p.string(DYNAMIC_TOPIC, "")),
                    p.integer(PARTITION, 0),
                    p.integer(PARTITIONS_NUM, 1),
                    PartitionHashRules.parse(PARTITION_HASH, p.string(PARTITION_HASH, "")),
                    TopicPartitionCounts.parse(DYNAMIC_TOPIC_PARTITION_NUM, p.string(DYNAMIC_TOPIC_PARTITION_NUM, "")),
                    p.bool(FLAT_MESSAGE, true),
                    p.integer(CANAL_BATCH_SIZE, 50),
                    p.longValue(CANAL_GET_TIMEOUT, 100),
                    p.bool(DATABASE_HASH, true),
                    p.integer(SEND_THREAD_SIZE, 30),
                    p.integer(BUILD_THREAD_SIZE, 8),
                    p.bool(FILTER_TRANSACTION_ENTRY, false));
        } catch (IllegalArgumentException e) {
            throw e instanceof MqConfigException ? e : new MqConfigException(e.getMessage(), e);
        }
    }

    /** Partitions to hash over in {@code topicName} (8.4 "partitionsNum"). */
    public int partitionsFor(String topicName) {
        return topicPartitions.countFor(topicName).orElse(partitionsNum);
    }

    private static void requireAtLeast(String key, long value, long min) {
        if (value < min) {
            throw new MqConfigException("invalid value '" + value + "' for " + key + ": must be at least " + min);
        }
    }
}
