package dev.canal.parse.meta.history;

import dev.canal.protocol.config.CommonKeys;
import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.TypedProperties;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The schema history's keys (docs/configuration.md). The history is a pair of JSON-lines files in {@code dir}
 * (see {@link JsonLinesHistoryStore}) unless {@code canal.instance.tsdb.url} names a MySQL-compatible database,
 * which then holds it in Canal's tables (see {@link JdbcHistoryStore}); docs/compatibility.md says how the URL
 * and {@code canal.instance.tsdb.spring.xml} choose between them.
 *
 * @param snapshotIntervalHours hours between snapshots of the schema model; 0 disables snapshots
 * @param snapshotExpireHours   snapshots whose binlog time is older than this many hours are deleted
 * @param database              the shared history database, or null for the local files
 */
public record TsdbConfig(boolean enable, Path dir, int snapshotIntervalHours, int snapshotExpireHours,
        HistoryDatabase database) {

    /** Canal's Spring XML for the MySQL-backed history; naming it requires a MySQL URL. */
    public static final String MYSQL_SPRING_XML = "classpath:spring/tsdb/mysql-tsdb.xml";
    private static final List<String> DATABASE_URL_PREFIXES = List.of("jdbc:mysql:", "jdbc:mariadb:");
    private static final String H2_URL_PREFIX = "jdbc:h2:";

    public static final ConfigKey ENABLE = ConfigKey.canal("canal.instance.tsdb.enable", "true",
            "Keep a history of table definitions, so rows are decoded with the columns true at their position even "
                    + "after later DDL. Unset, the memory and group flavours keep none, as in Canal.");
    public static final ConfigKey DIR = ConfigKey.canal("canal.instance.tsdb.dir", null,
            "Folder of the schema history's files; default ${canal.file.data.dir}/{destination}.");
    public static final ConfigKey SNAPSHOT_INTERVAL = ConfigKey.canal("canal.instance.tsdb.snapshot.interval", "24",
            "Hours between snapshots of every table definition; 0 takes none.").atLeast(0);
    public static final ConfigKey SNAPSHOT_EXPIRE = ConfigKey.canal("canal.instance.tsdb.snapshot.expire", "360",
            "Snapshots whose binlog time is older than this many hours are deleted.").atLeast(1);
    public static final ConfigKey URL = ConfigKey.canal("canal.instance.tsdb.url", null,
            "A jdbc:mysql: (or jdbc:mariadb:) URL keeps the schema history in Canal's meta_history and meta_snapshot "
                    + "tables of that database, shared by every server so a failover keeps it; empty or a jdbc:h2: "
                    + "URL keeps it in local files under canal.instance.tsdb.dir (an H2 file is not read).");
    public static final ConfigKey DB_USERNAME = ConfigKey.canal("canal.instance.tsdb.dbUsername", "canal",
            "The user of the schema-history database.");
    public static final ConfigKey DB_PASSWORD = ConfigKey.canal("canal.instance.tsdb.dbPassword", "canal",
            "The password of the schema-history database.");
    public static final ConfigKey SPRING_XML = ConfigKey.canal("canal.instance.tsdb.spring.xml", null,
            "Canal's choice of history store; " + MYSQL_SPRING_XML + " requires a MySQL canal.instance.tsdb.url, "
                    + "any other value leaves the choice to the URL.");

    public static final List<ConfigKey> KEYS = List.of(ENABLE, DIR, SNAPSHOT_INTERVAL, SNAPSHOT_EXPIRE, URL,
            DB_USERNAME, DB_PASSWORD, SPRING_XML);

    /** A history in local files only. */
    public TsdbConfig(boolean enable, Path dir, int snapshotIntervalHours, int snapshotExpireHours) {
        this(enable, dir, snapshotIntervalHours, snapshotExpireHours, null);
    }

    /** Reads {@link #KEYS}; the folder defaults to {@code ${canal.file.data.dir}/<destination>}. */
    public static TsdbConfig fromProperties(TypedProperties properties, String destination) {
        String defaultDir = properties.string(CommonKeys.FILE_DATA_DIR) + "/" + destination;
        return new TsdbConfig(
                properties.bool(ENABLE),
                Path.of(properties.string(DIR.name(), defaultDir)).toAbsolutePath().normalize(),
                properties.integer(SNAPSHOT_INTERVAL),
                properties.integer(SNAPSHOT_EXPIRE),
                database(properties.string(URL), properties.string(DB_USERNAME), properties.string(DB_PASSWORD),
                        properties.string(SPRING_XML)));
    }

    /**
     * The shared database the keys name, or null for local files: a MySQL or MariaDB URL selects it; no URL or an
     * H2 one (Canal's single-server default) keeps the files; any other URL, or Canal's MySQL Spring XML without a
     * MySQL URL, is a configuration error.
     */
    static HistoryDatabase database(String url, String user, String password, String springXml) {
        String trimmed = url == null ? "" : url.trim();
        String scheme = trimmed.toLowerCase(Locale.ROOT);
        if (DATABASE_URL_PREFIXES.stream().anyMatch(scheme::startsWith)) {
            return new HistoryDatabase(trimmed, user, password);
        }
        if (springXml != null && springXml.trim().equals(MYSQL_SPRING_XML)) {
            throw TypedProperties.invalid(URL.name(), trimmed, SPRING_XML.name() + " = " + MYSQL_SPRING_XML
                    + " keeps the schema history in MySQL and needs a jdbc:mysql: URL");
        }
        if (!trimmed.isEmpty() && !scheme.startsWith(H2_URL_PREFIX)) {
            throw TypedProperties.invalid(URL.name(), trimmed,
                    "the schema history is kept in a jdbc:mysql: or jdbc:mariadb: database, or in local files "
                            + "(empty or jdbc:h2:)");
        }
        return null;
    }

    /** Whether the history is in a database every server can reach, so a failover keeps it. */
    public boolean shared() {
        return database != null;
    }

    /** Null when snapshots are disabled. */
    public Duration snapshotInterval() {
        return snapshotIntervalHours == 0 ? null : Duration.ofHours(snapshotIntervalHours);
    }

    public Duration snapshotExpiry() {
        return Duration.ofHours(snapshotExpireHours);
    }

    /**
     * The schema-history database. A {@code jdbc:mariadb:} URL is opened with the MySQL driver (same URL form).
     */
    public record HistoryDatabase(String url, String user, String password) {

        /** The URL as the MySQL driver takes it. */
        public String driverUrl() {
            return url.regionMatches(true, 0, "jdbc:mariadb:", 0, "jdbc:mariadb:".length())
                    ? "jdbc:mysql:" + url.substring("jdbc:mariadb:".length())
                    : url;
        }

        /** The URL without its parameters (which may carry credentials), for log lines and errors. */
        public String describe() {
            int query = url.indexOf('?');
            return query < 0 ? url : url.substring(0, query);
        }

        @Override
        public String toString() {
            return "HistoryDatabase[" + describe() + ", user " + user + "]";
        }
    }
}
