package dev.canal.instance.spring;

import dev.canal.protocol.config.ConfigKeySource;
import java.util.stream.Stream;

/** Where clients' cursors are kept and how group instances name their sources, for the key catalogue. */
public final class InstanceConfigKeys extends ConfigKeySource {

    public InstanceConfigKeys() {
        super("Cursors and group instances", "canal.properties",
                Stream.concat(InstanceMetaConfig.KEYS.stream(), GroupMemberProperties.KEYS.stream()).toList());
    }
}
