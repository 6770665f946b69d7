package dev.canal.instance.spring;

import dev.canal.protocol.config.TypedProperties;
import java.nio.file.Path;
import java.util.Properties;

/**
 * Where an instance keeps its clients' cursors (canal-compat.md 5.1, 7.2): the meta.dat root and flush
 * period of file-instance.xml, the ZooKeeper servers and push period of default-instance.xml.
 */
public record InstanceMetaConfig(Path fileDataDir, long fileFlushPeriodMillis, String zkServers,
        long zooKeeperFlushPeriodMillis) {

    public static final String FILE_DATA_DIR = "canal.file.data.dir";
    public static final String FILE_FLUSH_PERIOD = "canal.file.flush.period";
    public static final String ZK_SERVERS = "canal.zkServers";
    public static final String ZK_FLUSH_PERIOD = "canal.zookeeper.flush.period";

    public static final String DEFAULT_FILE_DATA_DIR = "../conf";
    public static final long DEFAULT_FLUSH_PERIOD_MILLIS = 1000;
    /** The XML default when {@code canal.zkServers} is empty (default-instance.xml). */
    public static final String DEFAULT_ZK_SERVERS = "127.0.0.1:2181";

    public InstanceMetaConfig {
        requirePositive(fileFlushPeriodMillis, FILE_FLUSH_PERIOD);
        requirePositive(zooKeeperFlushPeriodMillis, ZK_FLUSH_PERIOD);
    }

    public static InstanceMetaConfig fromProperties(Properties properties) {
        TypedProperties p = new TypedProperties(properties);
        return new InstanceMetaConfig(
                Path.of(p.string(FILE_DATA_DIR, DEFAULT_FILE_DATA_DIR)),
                p.longValue(FILE_FLUSH_PERIOD, DEFAULT_FLUSH_PERIOD_MILLIS),
                p.string(ZK_SERVERS, DEFAULT_ZK_SERVERS),
                p.longValue(ZK_FLUSH_PERIOD, DEFAULT_FLUSH_PERIOD_MILLIS));
    }

    private static void requirePositive(long value, String key) {
        if (value <= 0) {
            throw TypedProperties.invalid(key, Long.toString(value), "must be positive");
        }
    }
}
