package dev.canal.store;

import dev.canal.protocol.config.ConfigKeySource;
import java.util.stream.Stream;

/** The store's keys, for the deployer's key catalogue. */
public final class StoreConfigKeys extends ConfigKeySource {

    public StoreConfigKeys() {
        super("Store", "instance.properties",
                Stream.concat(StoreConfig.KEYS.stream(), ConsumerConfig.KEYS.stream()).toList());
    }
}
