package dev.canal.connector.mq;

import java.util.Locale;
import java.util.Optional;
import java.util.Properties;

/**
 * One broker's MQ mode, registered by its connector module as a {@link java.util.ServiceLoader} service
 * ({@code META-INF/services/dev.canal.connector.mq.MqMode}); {@link MqModes} finds it by its name. What
 * every broker shares (the per-destination workers, batches, messages, topics and partitions) lives in this module;
 * a broker brings its producer, its settings and what it changes in a destination's MQ settings.
 *
 * <p>An implementation is a thin class that names only its own module's classes in its signatures and fields: it is
 * instantiated to list the brokers on the class path, and its broker client's classes must load only when
 * {@link #producer} is called, in its mode.
 */
public interface MqMode {

    /** The {@code canal.serverMode} value that selects this broker, spelled as Canal does; matched ignoring case. */
    String name();

    /** A short lower-case name for the worker threads, {@code <name>-mq-<destination>}: the mode's, by default. */
    default String threadName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The broker's producer, configured from the server's settings (canal.properties with its overrides).
     *
     * @throws dev.canal.protocol.config.ConfigValueException naming the key when a producer setting is invalid
     */
    MqProducer producer(Properties serverProperties);

    /**
     * The broker's transactional producer for exactly-once delivery ({@code canal.mq.transaction}, docs/mq.md); empty
     * for a broker without transactions.
     *
     * @throws dev.canal.protocol.config.ConfigValueException naming the key when a producer setting is invalid
     */
    default Optional<MqTransactionalProducer> transactionalProducer(Properties serverProperties,
            MqTransactionConfig transactions) {
        return Optional.empty();
    }

    /** A destination's MQ settings as this broker takes them (a broker without partitions drops the hash). */
    default MqConfig adapt(String destination, MqConfig config) {
        return config;
    }
}
