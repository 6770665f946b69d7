package dev.canal.connector.mq;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.ConfigValueException;
import dev.canal.protocol.config.TypedProperties;
import java.util.List;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * Exactly-once delivery (ours, not Canal's; docs/mq.md): the server-wide keys that make each destination commit its
 * messages and its cursor in one broker transaction.
 *
 * @param enabled     whether destinations deliver through transactions
 * @param cursorTopic the compacted topic that keeps each destination's committed cursor
 * @param idPrefix    put before a destination's name to name its transactional producer
 */
public record MqTransactionConfig(boolean enabled, String cursorTopic, String idPrefix) {

    public static final ConfigKey TRANSACTION = ConfigKey.ours("canal.mq.transaction", "false",
            "Exactly once (Kafka mode): each destination commits its messages and its cursor in one Kafka "
                    + "transaction; consumers with isolation.level=read_committed see every row once (docs/mq.md).");
    public static final ConfigKey CURSOR_TOPIC = ConfigKey.ours("canal.mq.transaction.cursor.topic", "canal_cursor",
            "The compacted topic holding each destination's committed cursor, created if missing.");
    public static final ConfigKey ID_PREFIX = ConfigKey.ours("canal.mq.transaction.id.prefix", "canal-",
            "Put before the destination's name to form its transactional.id; servers that take over each other's "
                    + "destinations share it, separate clusters writing to one Kafka need their own.");

    public static final List<ConfigKey> KEYS = List.of(TRANSACTION, CURSOR_TOPIC, ID_PREFIX);

    /** Letters, digits, '.', '_' and '-', as Kafka allows in topic names and as is safe in a log line. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,200}");

    public MqTransactionConfig {
        requireName(CURSOR_TOPIC, cursorTopic);
        requireName(ID_PREFIX, idPrefix);
    }

    private static void requireName(ConfigKey key, String value) {
        if (!NAME.matcher(value).matches()) {
            throw ConfigValueException.invalid(key.name(), value, "must be 1 to 200 letters, digits, '.', '_' or '-'");
        }
    }

    public static MqTransactionConfig from(Properties properties) {
        TypedProperties p = new TypedProperties(properties);
        return new MqTransactionConfig(p.bool(TRANSACTION), p.string(CURSOR_TOPIC), p.string(ID_PREFIX));
    }

    /** The transactional producer's name for {@code destination}: the same on every server. */
    public String transactionalId(String destination) {
        return idPrefix + destination;
    }
}
