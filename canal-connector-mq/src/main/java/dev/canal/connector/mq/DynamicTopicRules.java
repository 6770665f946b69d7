package dev.canal.connector.mq;

import java.util.Locale;
import java.util.Optional;

/**
 * {@code canal.mq.dynamicTopic}: items {@code topic:pattern} route matching entries to
 * {@code topic}; a bare {@code pattern} routes to a topic named after the matched name. A first pass tries every
 * item against {@code schema.table}, a second against {@code schema}; a regex containing {@code \.} only ever
 * matches {@code schema.table}, any other regex only {@code schema}. Dots in topic names become underscores.
 */
public final class DynamicTopicRules {

    /** Whether an item applies in the pass over {@code schema.table} or over {@code schema}. */
    private static boolean appliesToTables(NamedRules.Rule<String> rule) {
        return !(rule.pattern() instanceof NamePattern.Regex regex) || regex.namesTable();
    }

    private static boolean appliesToSchemas(NamedRules.Rule<String> rule) {
        return !(rule.pattern() instanceof NamePattern.Regex regex) || !regex.namesTable();
    }

    /** Each item's topic; empty for a bare pattern, whose topic is the matched name. */
    private final NamedRules<String> rules;

    private DynamicTopicRules(NamedRules<String> rules) {
        this.rules = rules;
    }

    public static DynamicTopicRules none() {
        return new DynamicTopicRules(NamedRules.none());
    }

    public static DynamicTopicRules parse(String key, String setting) {
        return new DynamicTopicRules(NamedRules.parse(setting, item -> rule(key, item)));
    }

    private static NamedRules.Rule<String> rule(String key, String item) {
        int colon = item.indexOf(':');
        if (colon < 0) {
            return new NamedRules.Rule<>(NamePattern.of(key, item), "");
        }
        String topic = item.substring(0, colon).trim();
        if (topic.isEmpty()) {
            throw NamedRules.invalidItem(key, item, "empty topic before ':'");
        }
        return new NamedRules.Rule<>(NamePattern.of(key, item.substring(colon + 1).trim()), topic);
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }

    /** The topic of an entry of {@code schema.table}; entries without schema or table go to the default topic. */
    public String topicFor(String schema, String table, String defaultTopic) {
        if (schema.isEmpty() || table.isEmpty()) {
            return defaultTopic;
        }
        String qualified = schema + "." + table;
        return firstMatch(qualified, true)
                .or(() -> firstMatch(schema, false))
                .orElse(defaultTopic)
                .replace('.', '_');
    }

    private Optional<String> firstMatch(String name, boolean tablePass) {
        return rules.first(name, tablePass ? DynamicTopicRules::appliesToTables : DynamicTopicRules::appliesToSchemas)
                .map(topic -> topic.isEmpty() ? name.toLowerCase(Locale.ROOT) : topic);
    }
}
