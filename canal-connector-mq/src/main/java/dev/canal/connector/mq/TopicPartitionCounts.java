package dev.canal.connector.mq;

import java.util.List;
import java.util.OptionalInt;

/**
 * {@code canal.mq.dynamicTopicPartitionNum}: items {@code topicOrRegex:count}; the first item matching a topic
 * gives the number of partitions its rows are hashed over.
 */
public final class TopicPartitionCounts {

    private record Count(NamePattern topic, int partitions) {
    }

    private final List<Count> counts;

    private TopicPartitionCounts(List<Count> counts) {
        this.counts = counts;
    }

    public static TopicPartitionCounts none() {
        return new TopicPartitionCounts(List.of());
    }

    public static TopicPartitionCounts parse(String key, String setting) {
        return new TopicPartitionCounts(Items.split(setting).stream().map(item -> count(key, item)).toList());
    }

    private static Count count(String key, String item) {
        int colon = item.lastIndexOf(':');
        if (colon < 0) {
            throw new MqConfigException("invalid item '" + item + "' in " + key + ": expected topic:count");
        }
        String number = item.substring(colon + 1).trim();
        int partitions;
        try {
            partitions = Integer.parseInt(number);
        } catch (NumberFormatException e) {
            throw new MqConfigException("invalid item '" + item + "' in " + key + ": '" + number + "' is not a count", e);
        }
        if (partitions < 1) {
            throw new MqConfigException("invalid item '" + item + "' in " + key + ": the count must be at least 1");
        }
        return new Count(NamePattern.of(key, item.substring(0, colon).trim()), partitions);
    }

    public OptionalInt countFor(String topic) {
        return counts.stream().filter(c -> c.topic().matches(topic)).mapToInt(Count::partitions).findFirst();
    }
}
