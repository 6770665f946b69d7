package dev.canal.connector.rocketmq;

import dev.canal.protocol.config.ConfigKeySource;

/** The RocketMQ producer's keys, for the key catalogue; known even when RocketMQ mode is not in use. */
public final class RocketMqConfigKeys extends ConfigKeySource {

    public RocketMqConfigKeys() {
        super("RocketMQ", "canal.properties", RocketMqConfig.KEYS);
    }
}
