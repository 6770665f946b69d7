package dev.canal.sink.filter;

import dev.canal.protocol.config.ConfigKeySource;

/** The filter keys, for the deployer's key catalogue. */
public final class FilterConfigKeys extends ConfigKeySource {

    public FilterConfigKeys() {
        super("Filters", "instance.properties", SinkFilterConfig.KEYS);
    }
}
