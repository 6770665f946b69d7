package dev.canal.connector.pulsar;

import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageRouter;
import org.apache.pulsar.client.api.TopicMetadata;

/**
 * Routes a message to the partition its {@value #PROPERTY} property names, as Canal's Pulsar producer does: the
 * partition the shared rules computed ({@code canal.mq.partitionHash} over {@code canal.mq.partitionsNum}), taken
 * modulo the topic's real partition count when it is larger; no property or an unreadable one means partition 0.
 */
final class PartitionPropertyRouter implements MessageRouter {

    /** The message property Canal's Pulsar producer writes the partition into; consumers may read it. */
    static final String PROPERTY = "partitionNum";

    @Override
    public int choosePartition(Message<?> message, TopicMetadata metadata) {
        return partition(message.getProperty(PROPERTY), metadata.numPartitions());
    }

    static int partition(String property, int topicPartitions) {
        int partition = 0;
        if (property != null && !property.isEmpty()) {
            try {
                partition = Integer.parseInt(property);
            } catch (NumberFormatException e) {
                partition = 0;
            }
        }
        return topicPartitions > 0 && partition >= topicPartitions ? partition % topicPartitions : partition;
    }
}
