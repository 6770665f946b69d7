package dev.canal.connector.rabbitmq;

import dev.canal.protocol.config.ConfigKeySource;

/** The RabbitMQ producer's keys, for the key catalogue; known even when RabbitMQ mode is not in use. */
public final class RabbitMqConfigKeys extends ConfigKeySource {

    public RabbitMqConfigKeys() {
        super("RabbitMQ", "canal.properties", RabbitMqConfig.KEYS);
    }
}
