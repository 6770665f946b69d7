package dev.canal.store;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.TypedProperties;
import java.util.List;
import java.util.Properties;

/**
 * How the store treats its consumers (docs/consumers.md).
 *
 * @param detachAfterMillis how long a full store waits for its slowest consumer before detaching it, when another
 *                          consumer could go on; 0 never detaches (every consumer holds the parser back, as Canal)
 */
public record ConsumerConfig(long detachAfterMillis) {

    public static final ConfigKey DETACH_AFTER = ConfigKey.ours("canal.instance.consumer.detach.timeout", "60000",
            "Milliseconds a full store waits for its slowest consumer before detaching it so that the destination's "
                    + "other consumers go on; the detached consumer is told on its next get and resumes from its "
                    + "cursor when the destination restarts (docs/consumers.md). 0 never detaches.").atLeast(0);

    public static final List<ConfigKey> KEYS = List.of(DETACH_AFTER);

    public ConsumerConfig {
        DETACH_AFTER.check(Long.toString(detachAfterMillis));
    }

    public static ConsumerConfig defaults() {
        return fromProperties(new Properties());
    }

    public static ConsumerConfig fromProperties(Properties properties) {
        return new ConsumerConfig(new TypedProperties(properties).longValue(DETACH_AFTER));
    }

    public boolean detaches() {
        return detachAfterMillis > 0;
    }
}
