package dev.canal.parse.mysql;

import dev.canal.binlog.net.NetworkOptions;
import dev.canal.binlog.net.SslOptions;
import dev.canal.parse.meta.history.TsdbConfig;
import dev.canal.protocol.config.CommonKeys;
import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.Secrets;
import dev.canal.protocol.config.TypedProperties;
import dev.canal.protocol.config.ConfigValueException;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Every parser setting of an instance (docs/configuration.md), with Canal's defaults, read from the merged
 * canal.properties + instance.properties and validated up front so a bad value stops start-up naming its key.
 */
public record MysqlParserConfig(
        String masterHost,
        int masterPort,
        String username,
        String password,
        String defaultDatabaseName,
        long slaveId,
        StartPosition start,
        boolean gtidMode,
        NetworkOptions network,
        Duration heartbeatPeriod,
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
        long parallelBufferBytes,
        Set<String> allowedBinlogFormats,
        Set<String> allowedBinlogImages,
        boolean autoResetLatestPosMode,
        TsdbConfig tsdb,
        StandbySource standby,
        ZoneId timestampZone) {

    public static final ConfigKey MASTER_ADDRESS = ConfigKey.canal("canal.instance.master.address", null,
            "The source database, host:port. Required.");
    public static final ConfigKey MASTER_JOURNAL = ConfigKey.canal("canal.instance.master.journal.name", null,
            "Binlog file to start from when no client has acked a position yet.");
    public static final ConfigKey MASTER_POSITION = ConfigKey.canal("canal.instance.master.position", null,
            "Offset in that file to start from.");
    public static final ConfigKey MASTER_TIMESTAMP = ConfigKey.canal("canal.instance.master.timestamp", null,
            "Start at the first transaction at or after this time (milliseconds since the epoch), when no file is "
                    + "given.");
    public static final ConfigKey MASTER_GTID = ConfigKey.canal("canal.instance.master.gtid", null,
            "GTID set to start after, in GTID mode.");
    public static final ConfigKey DB_USERNAME = ConfigKey.canal("canal.instance.dbUsername", "retl",
            "Account on the source, with SELECT, REPLICATION SLAVE and REPLICATION CLIENT.");
    public static final ConfigKey DB_PASSWORD = ConfigKey.canal("canal.instance.dbPassword", "retl",
            "Password of that account.");
    public static final ConfigKey DEFAULT_DATABASE = ConfigKey.canal("canal.instance.defaultDatabaseName", "",
            "Schema the connections to the source select at log-in.");
    public static final ConfigKey CONNECTION_CHARSET = ConfigKey.unsupported("canal.instance.connectionCharset",
            "Canal decodes statement text in this charset; this server decodes it in the charset its client wrote it "
                    + "in, which the binlog records (docs/compatibility.md).");
    public static final ConfigKey SLAVE_ID = ConfigKey.canal("canal.instance.mysql.slaveId", "0",
            "server_id this replica announces; 0 derives one from the destination's name and this host's address.");
    public static final ConfigKey GTID_ON = ConfigKey.canal("canal.instance.gtidon", "false",
            "Dump by GTID set instead of by file and position.");
    public static final ConfigKey DETECTING_ENABLE = ConfigKey.canal("canal.instance.detecting.enable", "false",
            "Run detecting.sql against the source periodically and raise an alarm when it fails.");
    public static final ConfigKey DETECTING_SQL = ConfigKey.canal("canal.instance.detecting.sql", null,
            "The heartbeat statement, e.g. select 1.");
    public static final ConfigKey DETECTING_INTERVAL = ConfigKey.canal("canal.instance.detecting.interval.time", "5",
            "Seconds between heartbeats.").atLeast(1);
    public static final ConfigKey DETECTING_RETRY = ConfigKey.canal("canal.instance.detecting.retry.threshold", "3",
            "More failed heartbeats in a row than this raise the alarm (and with heartbeatHaEnable switch to the "
                    + "standby source).");
    public static final ConfigKey TRANSACTION_SIZE = ConfigKey.canal("canal.instance.transaction.size", "1024",
            "Entries the parser hands to the store at once at most, a power of 2; a bigger transaction goes in "
                    + "several parts.").powerOfTwo();
    public static final ConfigKey FALLBACK_INTERVAL = ConfigKey.canal("canal.instance.fallbackIntervalInSeconds", "60",
            "Seconds to step back from a stored timestamp when the start must be searched by time.");
    public static final ConfigKey PARALLEL = ConfigKey.canal("canal.instance.parser.parallel", "true",
            "Decode row events on several threads (order is kept).");
    public static final ConfigKey PARALLEL_THREADS = ConfigKey.canal("canal.instance.parser.parallelThreadSize", null,
            "Threads that decode row events; default 60% of the processors, at least 1.").atLeast(1);
    public static final ConfigKey PARALLEL_BUFFER = ConfigKey.canal("canal.instance.parser.parallelBufferSize", "256",
            "Slots of the parser's ring between reading and decoding, a power of 2.").powerOfTwo();
    public static final ConfigKey PARALLEL_BUFFER_BYTES = ConfigKey.ours("canal.instance.parser.parallelBufferBytes",
            null, "Bytes of events of 64 KiB or more the parser's ring may hold beyond the first, so that big rows "
                    + "behind a stalled client do not fill the heap (a single larger event still passes, alone); "
                    + "default a 32nd of the JVM's maximum heap (8 MiB of 256 MiB).").atLeast(0);
    public static final ConfigKey BINLOG_FORMAT = ConfigKey.canal("canal.instance.binlog.format", "",
            "binlog_format values the source may have (comma-separated); empty accepts any.");
    public static final ConfigKey BINLOG_IMAGE = ConfigKey.canal("canal.instance.binlog.image", "",
            "binlog_row_image values the source may have (comma-separated); empty accepts any.");
    public static final ConfigKey TIMESTAMP_ZONE = ConfigKey.ours("canal.instance.timestamp.zone", "",
            "Time zone TIMESTAMP values are rendered in, binlog and snapshot rows alike: a region (Asia/Shanghai) or "
                    + "an offset (UTC, +08:00); empty renders them in the server JVM's zone, as Canal does.");
    public static final ConfigKey AUTO_RESET_LATEST = ConfigKey.canal("canal.auto.reset.latest.pos.mode", "false",
            "When the stored position's binlog has been purged, start at the source's current position instead of "
                    + "stopping (rows in between are skipped).");

    public static final List<ConfigKey> KEYS = List.of(MASTER_ADDRESS, MASTER_JOURNAL, MASTER_POSITION,
            MASTER_TIMESTAMP, MASTER_GTID, DB_USERNAME, DB_PASSWORD, DEFAULT_DATABASE, CONNECTION_CHARSET, SLAVE_ID,
            GTID_ON, DETECTING_ENABLE, DETECTING_SQL, DETECTING_INTERVAL, DETECTING_RETRY, TRANSACTION_SIZE,
            FALLBACK_INTERVAL, PARALLEL, PARALLEL_THREADS, PARALLEL_BUFFER, PARALLEL_BUFFER_BYTES, BINLOG_FORMAT, BINLOG_IMAGE,
            AUTO_RESET_LATEST, TIMESTAMP_ZONE,
            ConfigKey.unsupported("canal.instance.rds.*", "Aliyun RDS binlog download from OSS; not implemented."),
            ConfigKey.unsupported("canal.instance.filter.druid.ddl",
                    "Canal's choice of DDL parser; this server always parses DDL with Druid."),
            ConfigKey.unsupported("canal.instance.enableDruid", "Canal's choice of DDL parser; see above."),
            ConfigKey.unsupported("canal.instance.pwdPublicKey", "Canal's encrypted dbPassword; not implemented."),
            ConfigKey.unsupported("canal.instance.multi.stream.on", "Canal's multi-stream parsing; not implemented."));

    /** The configured start, any part of which may be absent. */
    public record StartPosition(String journalName, Long position, Long timestamp, String gtid) {

        public boolean isEmpty() {
            return journalName == null && position == null && timestamp == null && gtid == null;
        }
    }

    public MysqlParserConfig {
        allowedBinlogFormats = Set.copyOf(allowedBinlogFormats);
        allowedBinlogImages = Set.copyOf(allowedBinlogImages);
        standby = standby == null ? StandbySource.none() : standby;
    }

    public static MysqlParserConfig fromProperties(Properties properties) {
        TypedProperties p = new TypedProperties(properties);
        SourceEndpoint master = SourceEndpoint.parse(MASTER_ADDRESS, p.required(MASTER_ADDRESS.name()),
                new StartPosition(p.string(MASTER_JOURNAL), p.optionalLong(MASTER_POSITION.name()),
                        p.optionalLong(MASTER_TIMESTAMP.name()), p.string(MASTER_GTID)));
        int cpus = Runtime.getRuntime().availableProcessors();
        return new MysqlParserConfig(
                master.host(), master.port(),
                p.string(DB_USERNAME), p.string(DB_PASSWORD),
                p.string(DEFAULT_DATABASE),
                p.longValue(SLAVE_ID),
                master.start(),
                p.bool(GTID_ON),
                SourceConnectionKeys.network(p),
                SourceConnectionKeys.heartbeatPeriod(p),
                SourceConnectionKeys.ssl(p),
                p.bool(DETECTING_ENABLE), p.string(DETECTING_SQL),
                p.integer(DETECTING_INTERVAL), p.integer(DETECTING_RETRY),
                p.integer(TRANSACTION_SIZE),
                p.integer(FALLBACK_INTERVAL),
                p.bool(PARALLEL),
                p.integer(PARALLEL_THREADS, Math.max(1, cpus * 60 / 100)),
                p.integer(PARALLEL_BUFFER),
                parallelBufferBytes(p),
                upperCaseList(p.string(BINLOG_FORMAT)),
                upperCaseList(p.string(BINLOG_IMAGE)),
                p.bool(AUTO_RESET_LATEST),
                TsdbConfig.fromProperties(p, p.string(CommonKeys.DESTINATION.name(), "")),
                StandbySource.fromProperties(p),
                timestampZone(p));
    }

    /**
     * {@link #PARALLEL_BUFFER_BYTES}, by default a 32nd of the heap: a 256 MiB heap then holds one 16 MiB event and
     * its entries in the ring while the store holds others (docs/reliability.md, scenario 9).
     */
    private static long parallelBufferBytes(TypedProperties p) {
        long value = p.longValue(PARALLEL_BUFFER_BYTES.name(), Runtime.getRuntime().maxMemory() / 32);
        PARALLEL_BUFFER_BYTES.check(Long.toString(value));
        return value;
    }

    /** The zone {@link #TIMESTAMP_ZONE} names; the JVM's when it is empty. */
    private static ZoneId timestampZone(TypedProperties p) {
        String zone = p.string(TIMESTAMP_ZONE).trim();
        if (zone.isEmpty()) {
            return ZoneId.systemDefault();
        }
        try {
            return ZoneId.of(zone);
        } catch (DateTimeException e) {
            throw ConfigValueException.invalid(TIMESTAMP_ZONE.name(), zone,
                    "not a time zone (a region such as Asia/Shanghai, or an offset such as UTC or +08:00)", e);
        }
    }

    /** The master source ({@code canal.instance.master.*}). */
    public SourceEndpoint master() {
        return new SourceEndpoint(masterHost, masterPort, start);
    }

    /** Canal's automatic replica id when none is configured (docs/configuration.md, {@code slaveId}). */
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

    @Override
    public String toString() {
        return Secrets.toString(this, Set.of("password")); // never the secret itself
    }
}
