package dev.canal.connector.kafka;

import dev.canal.protocol.config.ConfigKeySource;

/** The Kafka producer's keys, for the key catalogue; known even when Kafka mode is not in use. */
public final class KafkaConfigKeys extends ConfigKeySource {

    public KafkaConfigKeys() {
        super("Kafka", "canal.properties", KafkaProducerConfig.KEYS);
    }
}
