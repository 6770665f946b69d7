package dev.canal.connector.mq;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * {@code canal.mq.partitionHash}: items {@code name}, {@code name:col1^col2} or
 * {@code name:$pk$}; the first item whose name matches {@code schema.table} decides how its rows are hashed.
 */
public final class PartitionHashRules {

    private static final String PRIMARY_KEY = "$pk$";

    /** How the rows of a matched table are spread over partitions. */
    public sealed interface HashMode {
    }

    /** The whole table goes to one partition, chosen by the table name's hash. */
    public record ByTable() implements HashMode {
    }

    /** Rows hashed by the named columns. */
    public record ByColumns(List<String> columns) implements HashMode {
        public ByColumns {
            columns = List.copyOf(columns);
        }
    }

    /** Rows hashed by the table's key columns. */
    public record ByPrimaryKey() implements HashMode {
    }

    private final NamedRules<HashMode> rules;

    private PartitionHashRules(NamedRules<HashMode> rules) {
        this.rules = rules;
    }

    public static PartitionHashRules none() {
        return new PartitionHashRules(NamedRules.none());
    }

    /** Parses the setting; {@code key} names it in errors. */
    public static PartitionHashRules parse(String key, String setting) {
        return new PartitionHashRules(NamedRules.parse(setting, item -> rule(key, item)));
    }

    private static NamedRules.Rule<HashMode> rule(String key, String item) {
        int colon = item.indexOf(':');
        if (colon < 0) {
            return new NamedRules.Rule<>(NamePattern.of(key, item), new ByTable());
        }
        NamePattern table = NamePattern.of(key, item.substring(0, colon).trim());
        String columns = item.substring(colon + 1).trim();
        if (columns.equals(PRIMARY_KEY)) {
            return new NamedRules.Rule<>(table, new ByPrimaryKey());
        }
        List<String> names = Arrays.stream(columns.split("\\^")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        if (names.isEmpty()) {
            throw NamedRules.invalidItem(key, item, "no column after ':'");
        }
        return new NamedRules.Rule<>(table, new ByColumns(names));
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }

    /** The mode of the first matching item; empty when none matches (the rows then go to partition 0). */
    public Optional<HashMode> modeFor(String schema, String table) {
        return rules.first(schema + "." + table);
    }
}
