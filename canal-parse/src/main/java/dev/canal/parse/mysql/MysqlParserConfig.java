package dev.canal.parse.mysql;

import dev.canal.parse.meta.history.TsdbConfig;
import dev.canal.binlog.net.NetworkOptions;
import dev.canal.binlog.net.SslOptions;
import dev.canal.protocol.config.TypedProperties;
import java.util.Arrays;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Every parser setting of an instance (canal-compat.md 7.2, 7.3), with Canal's defaults, read from the merged
 * canal.properties + instance.properties and validated up front so a bad value stops start-up naming its key.
 */
public record MysqlParserConfig(
        String masterHost,
        int masterPort,
        String username,
        String password,
        String defaultDatabaseName,
        String connectionCharset,
        long slaveId,
        StartPosition start,
        boolean gtidMode,
        NetworkOptions network,
        SslOptions ssl,
        boolean detectingEnable,
        String detectingSql,
        int detectingIntervalSeconds,
        int detectingRetryThreshold,
        int transactionSize,
        int fallbackIntervalSeconds,
        boolean parallel,
        int parallelThreadSize,
        int parallelBufferSize,
        Set<String> allowedBinlogFormats,
        Set<String> allowedBinlogImages,
        boolean autoResetLatestPosMode,
        TsdbConfig tsdb) {

    public static final String MASTER_ADDRESS = "canal.instance.master.address";
    public static final String MASTER_JOURNAL = "canal.instance.master.journal.name";
    public static final String MASTER_POSITION = "canal.instance.master.position";
    public static final String MASTER_TIMESTAMP = "canal.instance.master.timestamp";
    public static final String MASTER_GTID = "canal.instance.master.gtid";
    public static final String DB_USERNAME = "canal.instance.dbUsername";
    public static final String DB_PASSWORD = "canal.instance.dbPassword";
    public static final String DEFAULT_DATABASE = "canal.instance.defaultDatabaseName";
    public static final String CONNECTION_CHARSET = "canal.instance.connectionCharset";
    public static final String SLAVE_ID = "canal.instance.mysql.slaveId";
    public static final String GTID_ON = "canal.instance.gtidon";
    /** Prefix of the source's TLS keys ({@code canal.instance.master.sslMode} and friends). */
    public static final String MASTER_SSL_PREFIX = "canal.instance.master.";
    public static final String DETECTING_ENABLE = "canal.instance.detecting.enable";
    public static final String DETECTING_SQL = "canal.instance.detecting.sql";
    public static final String DETECTING_INTERVAL = "canal.instance.detecting.interval.time";
    public static final String DETECTING_RETRY = "canal.instance.detecting.retry.threshold";
    public static final String TRANSACTION_SIZE = "canal.instance.transaction.size";
    public static final String FALLBACK_INTERVAL = "canal.instance.fallbackIntervalInSeconds";
    public static final String PARALLEL = "canal.instance.parser.parallel";
    public static final String PARALLEL_THREADS = "canal.instance.parser.parallelThreadSize";
    public static final String PARALLEL_BUFFER = "canal.instance.parser.parallelBufferSize";
    public static final String BINLOG_FORMAT = "canal.instance.binlog.format";
    public static final String BINLOG_IMAGE = "canal.instance.binlog.image";
    public static final String AUTO_RESET_LATEST = "canal.auto.reset.latest.pos.mode";
    /** Set by the instance to the destination's name; names the default schema-history directory. */
    public static final String DESTINATION = "canal.instance.destination";

    /** The configured start, any part of which may be absent (canal-compat.md 9.2). */
    public record StartPosition(String journalName, Long position, Long timestamp, String gtid) {

        public boolean isEmpty() {
            return journalName == null && position == null && timestamp == null && gtid == null;
        }
    }

    public MysqlParserConfig {
        requirePositive(masterPort, MASTER_ADDRESS);
        requirePositive(transactionSize, TRANSACTION_SIZE);
        requirePowerOfTwo(transactionSize, TRANSACTION_SIZE);
        requirePositive(parallelThreadSize, PARALLEL_THREADS);
        requirePowerOfTwo(parallelBufferSize, PARALLEL_BUFFER);
        requirePositive(detectingIntervalSeconds, DETECTING_INTERVAL);
        allowedBinlogFormats = Set.copyOf(allowedBinlogFormats);
        allowedBinlogImages = Set.copyOf(allowedBinlogImages);
    }

    public static MysqlParserConfig fromProperties(Properties properties) {
        TypedProperties p = new TypedProperties(properties);
        String address = p.required(MASTER_ADDRESS);
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            throw TypedProperties.invalid(MASTER_ADDRESS, address, "expected host:port");
        }
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw TypedProperties.invalid(MASTER_ADDRESS, address, "the port is not a number");
        }
        int cpus = Runtime.getRuntime().availableProcessors();
        return new MysqlParserConfig(
                address.substring(0, colon), port,
                p.string(DB_USERNAME, "retl"), p.string(DB_PASSWORD, "retl"),
                p.string(DEFAULT_DATABASE, ""),
                p.string(CONNECTION_CHARSET, "UTF-8"),
                p.longValue(SLAVE_ID, 0),
                new StartPosition(p.string(MASTER_JOURNAL, null), p.optionalLong(MASTER_POSITION),
                        p.optionalLong(MASTER_TIMESTAMP), p.string(MASTER_GTID, null)),
                p.bool(GTID_ON, false),
                NetworkOptions.fromProperties(properties),
                SslOptions.fromProperties(properties, MASTER_SSL_PREFIX),
                p.bool(DETECTING_ENABLE, false), p.string(DETECTING_SQL, null),
                p.integer(DETECTING_INTERVAL, 5), p.integer(DETECTING_RETRY, 3),
                p.integer(TRANSACTION_SIZE, 1024),
                p.integer(FALLBACK_INTERVAL, 60),
                p.bool(PARALLEL, true),
                // Canal's default: 60% of the processors, at least one
                p.integer(PARALLEL_THREADS, Math.max(1, cpus * 60 / 100)),
                p.integer(PARALLEL_BUFFER, 256),
                upperCaseList(p.string(BINLOG_FORMAT, "")),
                upperCaseList(p.string(BINLOG_IMAGE, "")),
                p.bool(AUTO_RESET_LATEST, false),
                TsdbConfig.fromProperties(p, p.string(DESTINATION, "")));
    }

    /** Canal's automatic replica id when none is configured (canal-compat.md 7.3). */
    public long effectiveSlaveId(String destination, byte[] localAddress) {
        if (slaveId != 0) {
            return slaveId;
        }
        return ((long) (destination.hashCode() & 0x7f) << 24) + ((localAddress[1] & 0xFF) << 16)
                + ((localAddress[2] & 0xFF) << 8) + (localAddress[3] & 0xFF);
    }

    private static Set<String> upperCaseList(String value) {
        return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                .map(s -> s.toUpperCase(Locale.ROOT)).collect(Collectors.toSet());
    }

    private static void requirePositive(int value, String key) {
        if (value <= 0) {
            throw new IllegalArgumentException("invalid value " + value + " for " + key + ": must be positive");
        }
    }

    private static void requirePowerOfTwo(int value, String key) {
        if (value <= 0 || Integer.bitCount(value) != 1) {
            throw new IllegalArgumentException("invalid value " + value + " for " + key + ": must be a power of 2");
        }
    }
}
