package dev.canal.connector.mq;

import dev.canal.protocol.config.ConfigKeySource;
import java.util.stream.Stream;

/** The keys every MQ mode shares, for the key catalogue; known even when no MQ mode is in use. */
public final class MqConfigKeys extends ConfigKeySource {

    public MqConfigKeys() {
        super("MQ", "canal.properties", Stream.concat(MqConfig.KEYS.stream(), MqTransactionConfig.KEYS.stream())
                .toList());
    }
}
