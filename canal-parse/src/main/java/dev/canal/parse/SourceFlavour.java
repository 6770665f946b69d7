package dev.canal.parse;

import dev.canal.binlog.gtid.MariadbGtidList;
import dev.canal.binlog.gtid.MysqlGtidSet;
import dev.canal.binlog.net.BinlogStream;
import dev.canal.binlog.net.ReplicaSession;
import dev.canal.binlog.net.ServerVersion;
import dev.canal.parse.convert.GtidTracker;
import java.io.IOException;
import java.sql.Types;
import java.util.Locale;

/**
 * What differs between a MySQL and a MariaDB source above the binlog decoder, in one place: the notation of GTID
 * sets, and the JSON type, which MariaDB keeps as text (an alias of LONGTEXT) where MySQL stores binary JSON.
 * Canal reports MariaDB's JSON columns as BLOB, MySQL's as VARCHAR, and a NULL in MySQL's as OTHER (the sqlType of
 * the JSON type itself, which only a decoded value replaces): docs/compatibility.md.
 */
public enum SourceFlavour {

    MYSQL(Types.VARCHAR, Types.OTHER, false) {
        @Override
        public GtidTracker gtidTracker(String start) {
            return GtidTracker.mysql(start == null ? new MysqlGtidSet() : MysqlGtidSet.parse(start));
        }

        @Override
        public BinlogStream dump(ReplicaSession session, String gtids) throws IOException {
            return session.dump(MysqlGtidSet.parse(gtids));
        }
    },

    MARIADB(Types.BLOB, Types.BLOB, true) {
        @Override
        public GtidTracker gtidTracker(String start) {
            return GtidTracker.mariadb(start == null ? new MariadbGtidList() : MariadbGtidList.parse(start));
        }

        @Override
        public BinlogStream dump(ReplicaSession session, String gtids) throws IOException {
            return session.dump(MariadbGtidList.parse(gtids));
        }
    };

    private final int jsonSqlType;
    private final int jsonNullSqlType;
    private final boolean jsonIsText;

    SourceFlavour(int jsonSqlType, int jsonNullSqlType, boolean jsonIsText) {
        this.jsonSqlType = jsonSqlType;
        this.jsonNullSqlType = jsonNullSqlType;
        this.jsonIsText = jsonIsText;
    }

    /** The flavour of the server behind a replication connection. */
    public static SourceFlavour of(ServerVersion version) {
        return version.isMariaDb() ? MARIADB : MYSQL;
    }

    /** The flavour of the server behind a JDBC connection, from its product version. */
    public static SourceFlavour ofProductVersion(String productVersion) {
        return productVersion.toLowerCase(Locale.ROOT).contains("mariadb") ? MARIADB : MYSQL;
    }

    /** The sqlType of a JSON column's value. */
    public int jsonSqlType() {
        return jsonSqlType;
    }

    /** The sqlType of a JSON column holding SQL NULL. */
    public int jsonNullSqlType() {
        return jsonNullSqlType;
    }

    /** Whether a JSON value read over JDBC is the text as written (MariaDB), not MySQL's rendering of binary JSON. */
    public boolean jsonIsText() {
        return jsonIsText;
    }

    /** Follows the executed GTID set in GTID mode from {@code start} (this flavour's notation; null: empty). */
    public abstract GtidTracker gtidTracker(String start);

    /** Dumps the binlog from a GTID set in this flavour's notation. */
    public abstract BinlogStream dump(ReplicaSession session, String gtids) throws IOException;
}
