package dev.canal.parse.meta.history;

import dev.canal.protocol.config.TypedProperties;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The table-meta TSDB keys of canal-compat.md 7.2 / 9.4 with Canal's defaults.
 *
 * <p>Our store is a pair of JSON-lines files in {@code dir} (see {@link JsonLinesHistoryStore}); {@code url},
 * {@code dbUsername} and {@code dbPassword} are read so that a Canal configuration loads unchanged, but only
 * matter to Canal's H2/MySQL store.
 *
 * @param snapshotIntervalHours hours between snapshots of the schema model; 0 disables snapshots
 * @param snapshotExpireHours   snapshots whose binlog time is older than this many hours are deleted
 */
public record TsdbConfig(boolean enable, Path dir, String url, String dbUsername, String dbPassword,
        int snapshotIntervalHours, int snapshotExpireHours) {

    public static final String ENABLE = "canal.instance.tsdb.enable";
    public static final String DIR = "canal.instance.tsdb.dir";
    public static final String URL = "canal.instance.tsdb.url";
    public static final String DB_USERNAME = "canal.instance.tsdb.dbUsername";
    public static final String DB_PASSWORD = "canal.instance.tsdb.dbPassword";
    public static final String SNAPSHOT_INTERVAL = "canal.instance.tsdb.snapshot.interval";
    public static final String SNAPSHOT_EXPIRE = "canal.instance.tsdb.snapshot.expire";
    /** Where {@code canal.instance.tsdb.dir} defaults to, per destination. */
    public static final String FILE_DATA_DIR = "canal.file.data.dir";

    public TsdbConfig {
        if (snapshotIntervalHours < 0) {
            throw TypedProperties.invalid(SNAPSHOT_INTERVAL, Integer.toString(snapshotIntervalHours), "must be >= 0");
        }
        if (snapshotExpireHours <= 0) {
            throw TypedProperties.invalid(SNAPSHOT_EXPIRE, Integer.toString(snapshotExpireHours), "must be > 0");
        }
    }

    /** Defaults: enabled, {@code ${canal.file.data.dir:../conf}/<destination>}, 24 h interval, 360 h expiry. */
    public static TsdbConfig fromProperties(TypedProperties properties, String destination) {
        String defaultDir = properties.string(FILE_DATA_DIR, "../conf") + "/" + destination;
        String dir = properties.string(DIR, defaultDir);
        return new TsdbConfig(
                properties.bool(ENABLE, true),
                Path.of(dir),
                properties.string(URL, "jdbc:h2:" + dir + "/h2;CACHE_SIZE=1000;MODE=MYSQL;"),
                properties.string(DB_USERNAME, "canal"),
                properties.string(DB_PASSWORD, "canal"),
                properties.integer(SNAPSHOT_INTERVAL, 24),
                properties.integer(SNAPSHOT_EXPIRE, 360));
    }

    /** Null when snapshots are disabled. */
    public Duration snapshotInterval() {
        return snapshotIntervalHours == 0 ? null : Duration.ofHours(snapshotIntervalHours);
    }

    public Duration snapshotExpiry() {
        return Duration.ofHours(snapshotExpireHours);
    }

    /** The password stays out of logs and exception messages. */
    @Override
    public String toString() {
        return "TsdbConfig[enable=" + enable + ", dir=" + dir + ", url=" + url + ", dbUsername=" + dbUsername
                + ", snapshotIntervalHours=" + snapshotIntervalHours + ", snapshotExpireHours=" + snapshotExpireHours + "]";
    }
}
