package dev.canal.connector.pulsar;

import dev.canal.protocol.config.ConfigKeySource;

/** The Pulsar producer's keys, for the key catalogue; known even when Pulsar mode is not in use. */
public final class PulsarConfigKeys extends ConfigKeySource {

    public PulsarConfigKeys() {
        super("Pulsar", "canal.properties", PulsarConfig.KEYS);
    }
}
