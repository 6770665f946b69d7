package dev.canal.instance.spring;

import dev.canal.protocol.config.CommonKeys;
import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.TypedProperties;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * Where an instance keeps its clients' cursors (docs/configuration.md): the meta.dat root and flush period of
 * file-instance.xml, the ZooKeeper servers and push period of default-instance.xml.
 */
public record InstanceMetaConfig(Path fileDataDir, long fileFlushPeriodMillis, String zkServers,
        long zooKeeperFlushPeriodMillis) {

    public static final ConfigKey FILE_FLUSH_PERIOD = ConfigKey.canal("canal.file.flush.period", "1000",
            "Milliseconds between writes of meta.dat in file mode (the cursor is also written at a clean stop).")
            .atLeast(1);
    public static final ConfigKey ZK_SERVERS = CommonKeys.ZK_SERVERS;
    public static final ConfigKey ZK_FLUSH_PERIOD = ConfigKey.canal("canal.zookeeper.flush.period", "1000",
            "Milliseconds between pushes of the clients' cursors to ZooKeeper.").atLeast(1);

    public static final List<ConfigKey> KEYS = List.of(FILE_FLUSH_PERIOD, ZK_FLUSH_PERIOD);

    /** The XML default when {@code canal.zkServers} is empty (default-instance.xml). */
    public static final String DEFAULT_ZK_SERVERS = "127.0.0.1:2181";

    public static InstanceMetaConfig fromProperties(Properties properties) {
        TypedProperties p = new TypedProperties(properties);
        return new InstanceMetaConfig(
                Path.of(p.string(CommonKeys.FILE_DATA_DIR)).toAbsolutePath().normalize(),
                p.longValue(FILE_FLUSH_PERIOD),
                p.string(ZK_SERVERS.name(), DEFAULT_ZK_SERVERS),
                p.longValue(ZK_FLUSH_PERIOD));
    }
}
