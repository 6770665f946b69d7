package dev.canal.binlog.event;

import dev.canal.binlog.io.LittleEndianCursor;
import java.util.ArrayList;
import java.util.List;

/** Reads QUERY status variables (code byte, then a value whose layout the code decides). */
final class QueryStatusVariablesReader {

    private static final int Q_FLAGS2 = 0;
    private static final int Q_SQL_MODE = 1;
    private static final int Q_CATALOG = 2;
    private static final int Q_AUTO_INCREMENT = 3;
    private static final int Q_CHARSET = 4;
    private static final int Q_TIME_ZONE = 5;
    private static final int Q_CATALOG_NZ = 6;
    private static final int Q_LC_TIME_NAMES = 7;
    private static final int Q_CHARSET_DATABASE = 8;
    private static final int Q_TABLE_MAP_FOR_UPDATE = 9;
    private static final int Q_MASTER_DATA_WRITTEN = 10;
    private static final int Q_INVOKER = 11;
    private static final int Q_UPDATED_DB_NAMES = 12;
    private static final int Q_MICROSECONDS = 13;
    private static final int Q_COMMIT_TS = 14;
    private static final int Q_EXPLICIT_DEFAULTS_FOR_TIMESTAMP = 16;
    private static final int Q_DDL_LOGGED_WITH_XID = 17;
    private static final int Q_DEFAULT_COLLATION_FOR_UTF8MB4 = 18;
    private static final int Q_SQL_REQUIRE_PRIMARY_KEY = 19;
    private static final int Q_DEFAULT_TABLE_ENCRYPTION = 20;
    private static final int Q_MARIA_HRNOW = 128;
    private static final int Q_MARIA_XID = 129;
    private static final int Q_MARIA_GTID_FLAGS3 = 130;
    private static final int Q_MARIA_CHARACTER_SET_COLLATIONS = 131;
    /** MariaDB extra GTID flags of a two-phase ALTER; they add the START ALTER's sequence number. */
    private static final int FL_COMMIT_ALTER = 4;
    private static final int FL_ROLLBACK_ALTER = 8;
    /** Q_UPDATED_DB_NAMES count meaning "more than 16 databases, names not logged". */
    private static final int OVER_MAX_DBS = 254;

    private QueryStatusVariablesReader() {
    }

    static QueryStatusVariables read(LittleEndianCursor c, int end) {
        Long flags2 = null;
        Long sqlMode = null;
        String catalog = null;
        Integer autoIncrementIncrement = null;
        Integer autoIncrementOffset = null;
        Integer charsetClient = null;
        Integer collationConnection = null;
        Integer collationServer = null;
        String timeZone = null;
        Integer lcTimeNames = null;
        Integer charsetDatabase = null;
        Long tableMapForUpdate = null;
        Long masterDataWritten = null;
        String invokerUser = null;
        String invokerHost = null;
        List<String> updatedDbNames = null;
        Integer microseconds = null;
        Boolean explicitDefaults = null;
        Long ddlXid = null;
        Integer utf8mb4Collation = null;
        Integer requirePrimaryKey = null;
        Integer tableEncryption = null;
        Long mariaXid = null;
        Integer mariaFlags3 = null;
        Integer unknownCode = null;

        LittleEndianCursor s = new LittleEndianCursor(c.array(), c.position(), end - c.position());
        loop:
        while (s.hasRemaining()) {
            int code = s.uint8();
            switch (code) {
                case Q_FLAGS2 -> flags2 = s.uint32();
                case Q_SQL_MODE -> sqlMode = s.int64();
                case Q_CATALOG -> {
                    catalog = s.string(s.uint8());
                    s.skip(1);
                }
                case Q_AUTO_INCREMENT -> {
                    autoIncrementIncrement = s.uint16();
                    autoIncrementOffset = s.uint16();
                }
                case Q_CHARSET -> {
                    charsetClient = s.uint16();
                    collationConnection = s.uint16();
                    collationServer = s.uint16();
                }
                case Q_TIME_ZONE -> timeZone = s.string(s.uint8());
                case Q_CATALOG_NZ -> catalog = s.string(s.uint8());
                case Q_LC_TIME_NAMES -> lcTimeNames = s.uint16();
                case Q_CHARSET_DATABASE -> charsetDatabase = s.uint16();
                case Q_TABLE_MAP_FOR_UPDATE -> tableMapForUpdate = s.int64();
                case Q_MASTER_DATA_WRITTEN -> masterDataWritten = s.uint32();
                case Q_INVOKER -> {
                    invokerUser = s.string(s.uint8());
                    invokerHost = s.string(s.uint8());
                }
                case Q_UPDATED_DB_NAMES -> {
                    int count = s.uint8();
                    if (count != OVER_MAX_DBS) {
                        updatedDbNames = new ArrayList<>(count);
                        for (int i = 0; i < count; i++) {
                            updatedDbNames.add(s.nullTerminatedString());
                        }
                        updatedDbNames = List.copyOf(updatedDbNames);
                    }
                }
                case Q_MICROSECONDS, Q_MARIA_HRNOW -> microseconds = s.uint24();
                case Q_COMMIT_TS -> s.skip(8);
                case Q_EXPLICIT_DEFAULTS_FOR_TIMESTAMP -> explicitDefaults = s.uint8() != 0;
                case Q_DDL_LOGGED_WITH_XID -> ddlXid = s.int64();
                case Q_DEFAULT_COLLATION_FOR_UTF8MB4 -> utf8mb4Collation = s.uint16();
                case Q_SQL_REQUIRE_PRIMARY_KEY -> requirePrimaryKey = s.uint8();
                case Q_DEFAULT_TABLE_ENCRYPTION -> tableEncryption = s.uint8();
                case Q_MARIA_XID -> mariaXid = s.int64();
                case Q_MARIA_GTID_FLAGS3 -> {
                    mariaFlags3 = s.uint8();
                    if ((mariaFlags3 & (FL_COMMIT_ALTER | FL_ROLLBACK_ALTER)) != 0) {
                        s.skip(8); // sequence number of the START ALTER this commits or rolls back
                    }
                }
                case Q_MARIA_CHARACTER_SET_COLLATIONS -> s.skip(s.uint8() * 4);
                default -> {
                    // Lengths are implied by codes: past an unknown one nothing can be read reliably.
                    unknownCode = code;
                    break loop;
                }
            }
        }
        return new QueryStatusVariables(flags2, sqlMode, catalog, autoIncrementIncrement, autoIncrementOffset,
                charsetClient, collationConnection, collationServer, timeZone, lcTimeNames, charsetDatabase,
                tableMapForUpdate, masterDataWritten, invokerUser, invokerHost, updatedDbNames, microseconds,
                explicitDefaults, ddlXid, utf8mb4Collation, requirePrimaryKey, tableEncryption, mariaXid, mariaFlags3,
                unknownCode);
    }
}
