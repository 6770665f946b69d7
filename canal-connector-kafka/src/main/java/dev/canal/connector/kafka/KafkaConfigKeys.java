package dev.canal.connector.kafka;

import dev.canal.connector.mq.MqConfig;
import dev.canal.protocol.config.ConfigKeySource;
import java.util.stream.Stream;

/** The MQ keys and the Kafka producer's, for the key catalogue; known even when Kafka mode is not in use. */
public final class KafkaConfigKeys extends ConfigKeySource {

    public KafkaConfigKeys() {
        super("MQ and Kafka", "canal.properties",
                Stream.concat(MqConfig.KEYS.stream(), KafkaProducerConfig.KEYS.stream()).toList());
    }
}
