package dev.canal.protocol;

import java.util.Objects;

/**
 * What a client subscribes to: a destination, optionally followed by {@code @consumer}. {@code example} is the
 * destination's default consumer (Canal's behaviour and cursor); {@code example@billing} is consumer
 * {@code billing} of destination {@code example}, with a cursor, batches and filter of its own over the same
 * binlog dump and store (docs/consumers.md). The official client always sends clientId 1001, so the consumer
 * travels in the destination name, the one field it lets a user choose.
 *
 * @param destination the instance's name, as configured
 * @param consumer    the consumer's name, "" for the default consumer
 */
public record ConsumerName(String destination, String consumer) {

    public static final char SEPARATOR = '@';
    /** The default consumer's name in metrics and logs. */
    public static final String DEFAULT = "";

    public ConsumerName {
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(consumer, "consumer");
        if (destination.indexOf(SEPARATOR) >= 0) {
            throw new IllegalArgumentException("a destination name cannot contain '" + SEPARATOR + "': " + destination);
        }
        if (consumer.indexOf(SEPARATOR) >= 0 || consumer.indexOf('/') >= 0) {
            throw new IllegalArgumentException("a consumer name cannot contain '" + SEPARATOR + "' or '/': "
                    + consumer);
        }
    }

    /** Splits what a client subscribed to at its first {@code @}; a trailing {@code @} names the default consumer. */
    public static ConsumerName parse(String subscribed) {
        Objects.requireNonNull(subscribed, "subscribed");
        int at = subscribed.indexOf(SEPARATOR);
        if (at < 0) {
            return new ConsumerName(subscribed, DEFAULT);
        }
        return new ConsumerName(subscribed.substring(0, at), subscribed.substring(at + 1));
    }

    /** The instance a subscription to this name is served by. */
    public static String destinationOf(String subscribed) {
        int at = subscribed.indexOf(SEPARATOR);
        return at < 0 ? subscribed : subscribed.substring(0, at);
    }

    /** Whether {@code subscribed} names the destination itself or one of its consumers. */
    public static boolean belongsTo(String subscribed, String destination) {
        return subscribed.equals(destination)
                || (subscribed.length() > destination.length() + 1 && subscribed.startsWith(destination)
                        && subscribed.charAt(destination.length()) == SEPARATOR);
    }

    public boolean isDefault() {
        return consumer.isEmpty();
    }

    /** The name clients subscribe with: {@code destination} or {@code destination@consumer}. */
    public String subscribedName() {
        return isDefault() ? destination : destination + SEPARATOR + consumer;
    }

    @Override
    public String toString() {
        return subscribedName();
    }
}
