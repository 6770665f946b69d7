package dev.canal.connector.rocketmq;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.ConfigKeySource;
import java.util.List;
import java.util.stream.Stream;

/** The RocketMQ producer's keys, for the key catalogue; known even when RocketMQ mode is not in use. */
public final class RocketMqConfigKeys extends ConfigKeySource {

    /** Canal's RocketMQ keys this server does not act on; accepted and named in the start-up warning. */
    static final List<ConfigKey> NOT_SUPPORTED = List.of(
            ConfigKey.unsupported("canal.mq.accessChannel", "RocketMQ's access channel (local or cloud); not implemented."),
            ConfigKey.unsupported("rocketmq.*", "Canal's other RocketMQ client keys; not implemented."));

    public RocketMqConfigKeys() {
        super("RocketMQ", "canal.properties", Stream.concat(RocketMqConfig.KEYS.stream(), NOT_SUPPORTED.stream())
                .toList());
    }
}
