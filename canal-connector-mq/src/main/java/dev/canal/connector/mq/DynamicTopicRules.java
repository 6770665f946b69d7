package dev.canal.connector.mq;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code canal.mq.dynamicTopic}: items {@code topic:pattern} route matching entries to
 * {@code topic}; a bare {@code pattern} routes to a topic named after the matched name. A first pass tries every
 * item against {@code schema.table}, a second against {@code schema}; a regex containing {@code \.} only ever
 * matches {@code schema.table}, any other regex only {@code schema}. Dots in topic names become underscores.
 */
public final class DynamicTopicRules {

    private record Rule(String topic, NamePattern pattern) {

        boolean appliesToTables() {
            return !(pattern instanceof NamePattern.Regex regex) || regex.namesTable();
        }

        boolean appliesToSchemas() {
            return !(pattern instanceof NamePattern.Regex regex) || !regex.namesTable();
        }

        String topicFor(String matchedName) {
            return topic.isEmpty() ? matchedName.toLowerCase(Locale.ROOT) : topic;
        }
    }

    private final List<Rule> rules;

    private DynamicTopicRules(List<Rule> rules) {
        this.rules = rules;
    }

    public static DynamicTopicRules none() {
        return new DynamicTopicRules(List.of());
    }

    public static DynamicTopicRules parse(String key, String setting) {
        return new DynamicTopicRules(Items.split(setting).stream().map(item -> rule(key, item)).toList());
    }

    private static Rule rule(String key, String item) {
        int colon = item.indexOf(':');
        if (colon < 0) {
            return new Rule("", NamePattern.of(key, item));
        }
        String topic = item.substring(0, colon).trim();
        if (topic.isEmpty()) {
            throw new MqConfigException("invalid item '" + item + "' in " + key + ": empty topic before ':'");
        }
        return new Rule(topic, NamePattern.of(key, item.substring(colon + 1).trim()));
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
        return rules.stream()
                .filter(r -> tablePass ? r.appliesToTables() : r.appliesToSchemas())
                .filter(r -> r.pattern().matches(name))
                .map(r -> r.topicFor(name))
                .findFirst();
    }
}
