package dev.canal.connector.rocketmq;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.ConfigValueException;
import dev.canal.protocol.config.TypedProperties;
import java.util.List;
import java.util.Properties;

/**
 * The RocketMQ producer settings of MQ mode ({@code rocketmq.*}, docs/mq.md), with Canal's defaults. Canal 1.1.4's
 * names ({@code canal.mq.servers}, {@code canal.mq.producerGroup}, {@code canal.mq.namespace}) are read where the
 * new key is absent, as Canal does.
 *
 * @param producerGroup        the producer group
 * @param namesrvAddr          name servers, {@code host:port} separated by {@code ;}
 * @param namespace            the namespace topics and the group live in, empty when none
 * @param enableMessageTrace   RocketMQ's message trace on
 * @param customizedTraceTopic the trace topic, empty for RocketMQ's default
 * @param retryTimesWhenSendFailed the client's own retries of a failed send (Canal's default 0); the batch is
 *                             rolled back and sent again after a failure anyway
 * @param vipChannelEnabled    send through the broker's VIP port (its port - 2)
 * @param tag                  the tag of every message, empty when none
 * @param sendTimeoutMs        how long one send waits for the broker's answer
 */
public record RocketMqConfig(String producerGroup, String namesrvAddr, String namespace, boolean enableMessageTrace,
        String customizedTraceTopic, int retryTimesWhenSendFailed, boolean vipChannelEnabled, String tag,
        int sendTimeoutMs) {

    public static final String PREFIX = "rocketmq.";

    public static final ConfigKey PRODUCER_GROUP = ConfigKey.canal("rocketmq.producer.group", "test",
            "The producer group.");
    public static final ConfigKey ENABLE_MESSAGE_TRACE = ConfigKey.canal("rocketmq.enable.message.trace", "false",
            "RocketMQ's message trace for every message sent.");
    public static final ConfigKey CUSTOMIZED_TRACE_TOPIC = ConfigKey.canal("rocketmq.customized.trace.topic", "",
            "The topic traces go to; empty means RocketMQ's default trace topic.");
    public static final ConfigKey NAMESPACE = ConfigKey.canal("rocketmq.namespace", "",
            "The namespace the producer group and topics live in; empty means none.");
    public static final ConfigKey NAMESRV_ADDR = ConfigKey.canal("rocketmq.namesrv.addr", "127.0.0.1:9876",
            "The name servers, host:port separated by ;.");
    public static final ConfigKey RETRY_TIMES_WHEN_SEND_FAILED = ConfigKey.canal(
            "rocketmq.retry.times.when.send.failed", "0",
            "The client's own retries of a failed send; a batch with a failed send is rolled back and sent again "
                    + "whatever this says.");
    public static final ConfigKey VIP_CHANNEL_ENABLED = ConfigKey.canal("rocketmq.vip.channel.enabled", "false",
            "Send through the broker's VIP channel (its port minus 2).");
    public static final ConfigKey TAG = ConfigKey.canal("rocketmq.tag", "", "The tag of every message; empty means none.");
    public static final ConfigKey SEND_TIMEOUT = ConfigKey.ours("rocketmq.send.timeout", "3000",
            "Milliseconds one send waits for the broker's answer (RocketMQ's default); then the batch is rolled back "
                    + "and sent again.");

    /** Canal 1.1.4's names, read where the new key is absent ({@code canal.mq.servers} is Kafka's declaration). */
    private static final String LEGACY_SERVERS = "canal.mq.servers";
    private static final ConfigKey LEGACY_PRODUCER_GROUP = ConfigKey.canal("canal.mq.producerGroup", null,
            "Canal 1.1.4's name of rocketmq.producer.group, read when that is absent.");
    private static final ConfigKey LEGACY_NAMESPACE = ConfigKey.canal("canal.mq.namespace", null,
            "Canal 1.1.4's name of rocketmq.namespace, read when that is absent.");

    /**
     * Canal hashes over the queue count the topic has on the broker at each send when this is on; here rows are
     * hashed over the configured counts, so {@code true} is refused rather than placing rows on other queues.
     */
    public static final ConfigKey ENABLE_DYNAMIC_QUEUE_PARTITION = ConfigKey.canal(
            "canal.mq.enableDynamicQueuePartition", "false",
            "Canal's RocketMQ option to hash rows over a topic's live queue count. Only false is supported: true "
                    + "stops start-up in RocketMQ mode; rows are hashed over canal.mq.partitionsNum (or "
                    + "canal.mq.dynamicTopicPartitionNum) queues, which should be set to the topic's queue count.");

    public static final List<ConfigKey> KEYS = List.of(PRODUCER_GROUP, ENABLE_MESSAGE_TRACE, CUSTOMIZED_TRACE_TOPIC,
            NAMESPACE, NAMESRV_ADDR, RETRY_TIMES_WHEN_SEND_FAILED, VIP_CHANNEL_ENABLED, TAG, SEND_TIMEOUT,
            LEGACY_PRODUCER_GROUP, LEGACY_NAMESPACE, ENABLE_DYNAMIC_QUEUE_PARTITION);

    public RocketMqConfig {
        if (producerGroup.isBlank()) {
            throw ConfigValueException.missing(PRODUCER_GROUP.name(), "required");
        }
        if (namesrvAddr.isBlank()) {
            throw ConfigValueException.missing(NAMESRV_ADDR.name(), "name servers are required, host:port separated by ;");
        }
        if (retryTimesWhenSendFailed < 0) {
            throw ConfigValueException.invalid(RETRY_TIMES_WHEN_SEND_FAILED.name(),
                    Integer.toString(retryTimesWhenSendFailed), "must be at least 0");
        }
        if (sendTimeoutMs < 1) {
            throw ConfigValueException.invalid(SEND_TIMEOUT.name(), Long.toString(sendTimeoutMs), "must be at least 1");
        }
    }

    /** Reads the keys (blank counts as absent); fails naming the key of an invalid value. */
    public static RocketMqConfig from(Properties properties) {
        TypedProperties p = new TypedProperties(properties);
        if (p.bool(ENABLE_DYNAMIC_QUEUE_PARTITION)) {
            throw ConfigValueException.invalid(ENABLE_DYNAMIC_QUEUE_PARTITION.name(), "true", "not supported: rows are "
                    + "hashed over canal.mq.partitionsNum (or canal.mq.dynamicTopicPartitionNum) queues, not the "
                    + "topic's live queue count; set those to the topic's queue count and remove the key");
        }
        return new RocketMqConfig(
                orLegacy(p, PRODUCER_GROUP, LEGACY_PRODUCER_GROUP.name()),
                orLegacy(p, NAMESRV_ADDR, LEGACY_SERVERS),
                orLegacy(p, NAMESPACE, LEGACY_NAMESPACE.name()),
                p.bool(ENABLE_MESSAGE_TRACE),
                p.string(CUSTOMIZED_TRACE_TOPIC),
                p.integer(RETRY_TIMES_WHEN_SEND_FAILED),
                p.bool(VIP_CHANNEL_ENABLED),
                p.string(TAG),
                p.integer(SEND_TIMEOUT));
    }

    /** The key's value; when absent or blank, the legacy key's, then the key's default. */
    private static String orLegacy(TypedProperties p, ConfigKey key, String legacy) {
        String value = p.string(key.name(), "");
        if (!value.isBlank()) {
            return value.trim();
        }
        String old = p.string(legacy, "");
        return old.isBlank() ? key.defaultValue() : old.trim();
    }
}
