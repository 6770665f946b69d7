package dev.canal.connector.mq;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.ConfigValueException;
import dev.canal.protocol.config.TypedProperties;
import dev.canal.sink.filter.SinkFilterConfig;
import java.util.List;
import java.util.Objects;
import java.util.Properties;

/**
 * The MQ keys of one destination (docs/configuration.md): server-wide {@code canal.mq.*} keys from
 * canal.properties, per-destination ones ({@code canal.mq.topic}, hashing, dynamic topics) from
 * instance.properties; the caller hands the merged properties. Rule strings are parsed here, so a bad item
 * stops start-up naming its key.
 *
 * @param topic                  the default topic
 * @param dynamicTopic           topics chosen by schema and table, empty when unused
 * @param partition              the fixed partition when no hash is configured
 * @param partitionsNum          partitions to hash over
 * @param partitionHash          which columns pick a row's partition, empty when unused
 * @param topicPartitions        per-topic partition counts
 * @param flatMessage            JSON rather than protobuf packets
 * @param canalBatchSize         fetch size of one get
 * @param canalGetTimeoutMs      ms one get waits (≤0: does not wait)
 * @param databaseHash           the schema name seeds the row hash
 * @param keyChangeToOldPartition an UPDATE of hashed columns also goes to the old values' partition
 * @param filterTransactionEntry BEGIN/END left out of protobuf packets
 */
public record MqConfig(String topic, DynamicTopicRules dynamicTopic, int partition, int partitionsNum,
        PartitionHashRules partitionHash,
        TopicPartitionCounts topicPartitions, boolean flatMessage, int canalBatchSize, long canalGetTimeoutMs,
        boolean databaseHash, boolean keyChangeToOldPartition, boolean filterTransactionEntry) {

    public static final ConfigKey TOPIC = ConfigKey.canal("canal.mq.topic", "",
            "The topic a destination's messages go to when no dynamic topic matches. Required in MQ modes.");
    public static final ConfigKey DYNAMIC_TOPIC = ConfigKey.canal("canal.mq.dynamicTopic", "",
            "Topics by schema or table: items separated by , or ;, each topic:pattern (matching tables go to that "
                    + "topic) or pattern (to a topic named after the schema or table); the first match wins, none "
                    + "falls back to canal.mq.topic.");
    public static final ConfigKey PARTITION = ConfigKey.canal("canal.mq.partition", "0",
            "The partition every message goes to when no partition hash is configured.").atLeast(0);
    public static final ConfigKey PARTITIONS_NUM = ConfigKey.canal("canal.mq.partitionsNum", "1",
            "Partitions a partition hash spreads over.").atLeast(1);
    public static final ConfigKey PARTITION_HASH = ConfigKey.canal("canal.mq.partitionHash", "",
            "Which columns pick a row's partition: items name:col1^col2, name:$pk$ (the primary key) or name (the "
                    + "table), separated by , or ;; a table no item names goes to partition 0. Empty sends everything "
                    + "to canal.mq.partition.");
    public static final ConfigKey DYNAMIC_TOPIC_PARTITION_NUM = ConfigKey.canal("canal.mq.dynamicTopicPartitionNum",
            "", "Partition counts of dynamic topics: topic-regex:count items, comma-separated.");
    public static final ConfigKey FLAT_MESSAGE = ConfigKey.canal("canal.mq.flatMessage", "true",
            "Send flat JSON messages (one per row batch of a table) rather than protobuf packets.");
    public static final ConfigKey CANAL_BATCH_SIZE = ConfigKey.canal("canal.mq.canalBatchSize", "50",
            "Entries fetched from the store per send.").atLeast(1);
    public static final ConfigKey CANAL_GET_TIMEOUT = ConfigKey.canal("canal.mq.canalGetTimeout", "100",
            "Milliseconds a fetch waits for entries; 0 or below does not wait.");
    public static final ConfigKey DATABASE_HASH = ConfigKey.canal("canal.mq.database.hash", "true",
            "The schema's name seeds a row's partition hash, as Canal does.");

    public static final ConfigKey KEY_CHANGE_TO_OLD_PARTITION = ConfigKey.ours(
            "canal.mq.partitionHash.keyChangeToOldPartition", "false",
            "Also send an UPDATE that changes a row's hashed columns to the partition of their old values, so that "
                    + "each partition holds every change of every key that lived in it; such a row then arrives "
                    + "twice. Off: one message, to the new values' partition, as Canal sends it.");

    public static final List<ConfigKey> KEYS = List.of(TOPIC, DYNAMIC_TOPIC, PARTITION, PARTITIONS_NUM,
            PARTITION_HASH, DYNAMIC_TOPIC_PARTITION_NUM, FLAT_MESSAGE, CANAL_BATCH_SIZE, CANAL_GET_TIMEOUT,
            DATABASE_HASH, KEY_CHANGE_TO_OLD_PARTITION,
            ConfigKey.unsupported("canal.mq.send.thread.size",
                    "Canal's pool of sending threads; the producer here sends asynchronously and needs none."),
            ConfigKey.unsupported("canal.mq.build.thread.size",
                    "Canal's pool for building messages; each destination builds its messages on its own thread."));

    public MqConfig {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(dynamicTopic, "dynamicTopic");
        Objects.requireNonNull(partitionHash, "partitionHash");
        Objects.requireNonNull(topicPartitions, "topicPartitions");
        PARTITION.check(Integer.toString(partition));
        PARTITIONS_NUM.check(Integer.toString(partitionsNum));
        CANAL_BATCH_SIZE.check(Integer.toString(canalBatchSize));
        if (topic.isBlank()) {
            throw ConfigValueException.missing(TOPIC.name(), "the default topic is required");
        }
    }

    /** Reads the keys with Canal's defaults; fails with the key of the first invalid value. */
    public static MqConfig from(Properties properties) {
        TypedProperties p = new TypedProperties(properties);
        return new MqConfig(
                p.string(TOPIC),
                DynamicTopicRules.parse(DYNAMIC_TOPIC.name(), p.string(DYNAMIC_TOPIC)),
                p.integer(PARTITION),
                p.integer(PARTITIONS_NUM),
                PartitionHashRules.parse(PARTITION_HASH.name(), p.string(PARTITION_HASH)),
                TopicPartitionCounts.parse(DYNAMIC_TOPIC_PARTITION_NUM.name(),
                        p.string(DYNAMIC_TOPIC_PARTITION_NUM)),
                p.bool(FLAT_MESSAGE),
                p.integer(CANAL_BATCH_SIZE),
                p.longValue(CANAL_GET_TIMEOUT),
                p.bool(DATABASE_HASH),
                p.bool(KEY_CHANGE_TO_OLD_PARTITION),
                p.bool(SinkFilterConfig.TRANSACTION_ENTRY));
    }

    /**
     * The same settings with every message on partition 0 and no partition hash, for a broker without partitions:
     * a batch's flat messages are then one per row entry, as Canal sends them there.
     */
    public MqConfig withoutPartitionHash() {
        return new MqConfig(topic, dynamicTopic, 0, 1, PartitionHashRules.none(), TopicPartitionCounts.none(),
                flatMessage, canalBatchSize, canalGetTimeoutMs, databaseHash, keyChangeToOldPartition,
                filterTransactionEntry);
    }

    /** Partitions to hash over in {@code topicName}. */
    public int partitionsFor(String topicName) {
        return topicPartitions.countFor(topicName).orElse(partitionsNum);
    }
}
