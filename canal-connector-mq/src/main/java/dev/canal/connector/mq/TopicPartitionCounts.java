package dev.canal.connector.mq;

import java.util.OptionalInt;

/**
 * {@code canal.mq.dynamicTopicPartitionNum}: items {@code topicOrRegex:count}; the first item matching a topic
 * gives the number of partitions its rows are hashed over.
 */
public final class TopicPartitionCounts {

    private final NamedRules<Integer> counts;

    private TopicPartitionCounts(NamedRules<Integer> counts) {
        this.counts = counts;
    }

    public static TopicPartitionCounts none() {
        return new TopicPartitionCounts(NamedRules.none());
    }

    public static TopicPartitionCounts parse(String key, String setting) {
        return new TopicPartitionCounts(NamedRules.parse(setting, item -> count(key, item)));
    }

    private static NamedRules.Rule<Integer> count(String key, String item) {
        int colon = item.lastIndexOf(':');
        if (colon < 0) {
            throw NamedRules.invalidItem(key, item, "expected topic:count");
        }
        String number = item.substring(colon + 1).trim();
        int partitions;
        try {
            partitions = Integer.parseInt(number);
        } catch (NumberFormatException e) {
            throw NamedRules.invalidItem(key, item, "'" + number + "' is not a count");
        }
        if (partitions < 1) {
            throw NamedRules.invalidItem(key, item, "the count must be at least 1");
        }
        return new NamedRules.Rule<>(NamePattern.of(key, item.substring(0, colon).trim()), partitions);
    }

    public OptionalInt countFor(String topic) {
        return counts.first(topic).map(OptionalInt::of).orElse(OptionalInt.empty());
    }
}
