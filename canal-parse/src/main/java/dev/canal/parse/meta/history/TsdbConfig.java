package dev.canal.parse.meta.history;

import dev.canal.protocol.config.CommonKeys;
import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.TypedProperties;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The schema history's keys (docs/configuration.md). The history is a pair of JSON-lines files in {@code dir}
 * (see {@link JsonLinesHistoryStore}); Canal's database-backed history keys are declared as not supported.
 *
 * @param snapshotIntervalHours hours between snapshots of the schema model; 0 disables snapshots
 * @param snapshotExpireHours   snapshots whose binlog time is older than this many hours are deleted
 */
public record TsdbConfig(boolean enable, Path dir, int snapshotIntervalHours, int snapshotExpireHours) {

    public static final ConfigKey ENABLE = ConfigKey.canal("canal.instance.tsdb.enable", "true",
            "Keep a history of table definitions, so rows are decoded with the columns true at their position even "
                    + "after later DDL. Unset, the memory and group flavours keep none, as in Canal.");
    public static final ConfigKey DIR = ConfigKey.canal("canal.instance.tsdb.dir", null,
            "Folder of the schema history's files; default ${canal.file.data.dir}/{destination}.");
    public static final ConfigKey SNAPSHOT_INTERVAL = ConfigKey.canal("canal.instance.tsdb.snapshot.interval", "24",
            "Hours between snapshots of every table definition; 0 takes none.");
    public static final ConfigKey SNAPSHOT_EXPIRE = ConfigKey.canal("canal.instance.tsdb.snapshot.expire", "360",
            "Snapshots whose binlog time is older than this many hours are deleted.");

    public static final List<ConfigKey> KEYS = List.of(ENABLE, DIR, SNAPSHOT_INTERVAL, SNAPSHOT_EXPIRE,
            ConfigKey.unsupported("canal.instance.tsdb.url",
                    "Canal's database for the schema history; the history is kept in local files instead."),
            ConfigKey.unsupported("canal.instance.tsdb.dbUsername", "The user of Canal's schema-history database."),
            ConfigKey.unsupported("canal.instance.tsdb.dbPassword", "The password of Canal's schema-history database."),
            ConfigKey.unsupported("canal.instance.tsdb.spring.xml",
                    "The Spring XML of Canal's schema-history store; the local-file history needs none."));

    public TsdbConfig {
        if (snapshotIntervalHours < 0) {
            throw TypedProperties.invalid(SNAPSHOT_INTERVAL.name(), Integer.toString(snapshotIntervalHours),
                    "must be >= 0");
        }
        if (snapshotExpireHours <= 0) {
            throw TypedProperties.invalid(SNAPSHOT_EXPIRE.name(), Integer.toString(snapshotExpireHours), "must be > 0");
        }
    }

    /** Reads {@link #KEYS}; the folder defaults to {@code ${canal.file.data.dir}/<destination>}. */
    public static TsdbConfig fromProperties(TypedProperties properties, String destination) {
        String defaultDir = properties.string(CommonKeys.FILE_DATA_DIR) + "/" + destination;
        return new TsdbConfig(
                properties.bool(ENABLE),
                Path.of(properties.string(DIR.name(), defaultDir)),
                properties.integer(SNAPSHOT_INTERVAL),
                properties.integer(SNAPSHOT_EXPIRE));
    }

    /** Null when snapshots are disabled. */
    public Duration snapshotInterval() {
        return snapshotIntervalHours == 0 ? null : Duration.ofHours(snapshotIntervalHours);
    }

    public Duration snapshotExpiry() {
        return Duration.ofHours(snapshotExpireHours);
    }
}
