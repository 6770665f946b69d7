package dev.canal.connector.kafka;

import dev.canal.connector.mq.MqMode;
import dev.canal.connector.mq.MqProducer;
import dev.canal.connector.mq.MqTransactionConfig;
import dev.canal.connector.mq.MqTransactionalProducer;
import java.util.Optional;
import java.util.Properties;

/**
 * Kafka mode ({@code canal.serverMode=kafka}): one Kafka producer under the shared per-destination workers, or with
 * {@code canal.mq.transaction} one transactional producer per destination (exactly once, docs/mq.md).
 */
public final class KafkaMode implements MqMode {

    @Override
    public String name() {
        return "kafka";
    }

    /** The Kafka producer from the {@code kafka.*} settings. */
    @Override
    public MqProducer producer(Properties serverProperties) {
        return new KafkaMqProducer(KafkaProducerConfig.from(serverProperties));
    }

    /** Exactly once: a transactional producer per destination, from the same {@code kafka.*} settings. */
    @Override
    public Optional<MqTransactionalProducer> transactionalProducer(Properties serverProperties,
            MqTransactionConfig transactions) {
        return Optional.of(new KafkaTransactionalProducer(KafkaProducerConfig.from(serverProperties), transactions));
    }
}
