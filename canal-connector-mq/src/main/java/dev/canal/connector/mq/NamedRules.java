package dev.canal.connector.mq;

import dev.canal.protocol.config.ConfigValueException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A rule setting ({@code canal.mq.partitionHash}, {@code dynamicTopic}, {@code dynamicTopicPartitionNum}): items
 * separated by {@code ,} or {@code ;}, blanks dropped, each a name pattern with what it gives (docs/mq.md); the
 * first item whose pattern matches a name wins.
 *
 * @param <T> what an item gives for the names it matches
 */
final class NamedRules<T> {

    /** One item: the names it matches and what it gives them. */
    record Rule<T>(NamePattern pattern, T value) {
    }

    /** Parses one item of the setting. */
    @FunctionalInterface
    interface ItemParser<T> {
        Rule<T> parse(String item);
    }

    private final List<Rule<T>> rules;

    private NamedRules(List<Rule<T>> rules) {
        this.rules = rules;
    }

    static <T> NamedRules<T> none() {
        return new NamedRules<>(List.of());
    }

    static <T> NamedRules<T> parse(String setting, ItemParser<T> items) {
        return new NamedRules<>(Arrays.stream(setting.split("[,;]")).map(String::trim).filter(s -> !s.isEmpty())
                .map(items::parse).toList());
    }

    /** An item that cannot be read; the error carries the setting's key. */
    static ConfigValueException invalidItem(String key, String item, String reason) {
        return ConfigValueException.invalid(key, item, reason);
    }

    boolean isEmpty() {
        return rules.isEmpty();
    }

    /** What the first item matching {@code name} gives. */
    Optional<T> first(String name) {
        return first(name, rule -> true);
    }

    /** What the first of the items {@code considered} that matches {@code name} gives. */
    Optional<T> first(String name, Predicate<Rule<T>> considered) {
        return rules.stream().filter(considered).filter(r -> r.pattern().matches(name)).map(Rule::value).findFirst();
    }
}
