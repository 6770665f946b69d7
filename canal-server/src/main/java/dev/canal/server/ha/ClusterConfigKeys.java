package dev.canal.server.ha;

import dev.canal.protocol.config.ConfigKeySource;
import java.util.stream.Stream;

/** The keys of a server in a ZooKeeper cluster beyond Canal's, for the key catalogue. */
public final class ClusterConfigKeys extends ConfigKeySource {

    public ClusterConfigKeys() {
        super("ZooKeeper cluster", "canal.properties",
                Stream.concat(HandoverConfig.KEYS.stream(), PlacementConfig.KEYS.stream()).toList());
    }
}
