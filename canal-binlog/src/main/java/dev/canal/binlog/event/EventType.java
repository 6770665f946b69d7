package dev.canal.binlog.event;

/** Binlog event type codes of MySQL (0-42) and MariaDB (160-171), with their names for messages and dumps. */
public final class EventType {

    public static final int UNKNOWN = 0;
    public static final int START_V3 = 1;
    public static final int QUERY = 2;
    public static final int STOP = 3;
    public static final int ROTATE = 4;
    public static final int INTVAR = 5;
    public static final int LOAD = 6;
    public static final int SLAVE = 7;
    public static final int CREATE_FILE = 8;
    public static final int APPEND_BLOCK = 9;
    public static final int EXEC_LOAD = 10;
    public static final int DELETE_FILE = 11;
    public static final int NEW_LOAD = 12;
    public static final int RAND = 13;
    public static final int USER_VAR = 14;
    public static final int FORMAT_DESCRIPTION = 15;
    public static final int XID = 16;
    public static final int BEGIN_LOAD_QUERY = 17;
    public static final int EXECUTE_LOAD_QUERY = 18;
    public static final int TABLE_MAP = 19;
    public static final int PRE_GA_WRITE_ROWS = 20;
    public static final int PRE_GA_UPDATE_ROWS = 21;
    public static final int PRE_GA_DELETE_ROWS = 22;
    public static final int WRITE_ROWS_V1 = 23;
    public static final int UPDATE_ROWS_V1 = 24;
    public static final int DELETE_ROWS_V1 = 25;
    public static final int INCIDENT = 26;
    public static final int HEARTBEAT = 27;
    public static final int IGNORABLE = 28;
    public static final int ROWS_QUERY = 29;
    public static final int WRITE_ROWS_V2 = 30;
    public static final int UPDATE_ROWS_V2 = 31;
    public static final int DELETE_ROWS_V2 = 32;
    public static final int GTID = 33;
    public static final int ANONYMOUS_GTID = 34;
    public static final int PREVIOUS_GTIDS = 35;
    public static final int TRANSACTION_CONTEXT = 36;
    public static final int VIEW_CHANGE = 37;
    public static final int XA_PREPARE = 38;
    public static final int PARTIAL_UPDATE_ROWS = 39;
    public static final int TRANSACTION_PAYLOAD = 40;
    public static final int HEARTBEAT_V2 = 41;
    public static final int GTID_TAGGED = 42;

    public static final int MARIA_ANNOTATE_ROWS = 160;
    public static final int MARIA_BINLOG_CHECKPOINT = 161;
    public static final int MARIA_GTID = 162;
    public static final int MARIA_GTID_LIST = 163;
    public static final int MARIA_START_ENCRYPTION = 164;
    public static final int MARIA_QUERY_COMPRESSED = 165;
    public static final int MARIA_WRITE_ROWS_COMPRESSED_V1 = 166;
    public static final int MARIA_UPDATE_ROWS_COMPRESSED_V1 = 167;
    public static final int MARIA_DELETE_ROWS_COMPRESSED_V1 = 168;
    public static final int MARIA_WRITE_ROWS_COMPRESSED = 169;
    public static final int MARIA_UPDATE_ROWS_COMPRESSED = 170;
    public static final int MARIA_DELETE_ROWS_COMPRESSED = 171;

    private static final String[] NAMES = new String[256];

    static {
        String[] mysql = {"UNKNOWN", "START_V3", "QUERY", "STOP", "ROTATE", "INTVAR", "LOAD", "SLAVE", "CREATE_FILE",
            "APPEND_BLOCK", "EXEC_LOAD", "DELETE_FILE", "NEW_LOAD", "RAND", "USER_VAR", "FORMAT_DESCRIPTION", "XID",
            "BEGIN_LOAD_QUERY", "EXECUTE_LOAD_QUERY", "TABLE_MAP", "PRE_GA_WRITE_ROWS", "PRE_GA_UPDATE_ROWS",
            "PRE_GA_DELETE_ROWS", "WRITE_ROWS_V1", "UPDATE_ROWS_V1", "DELETE_ROWS_V1", "INCIDENT", "HEARTBEAT",
            "IGNORABLE", "ROWS_QUERY", "WRITE_ROWS_V2", "UPDATE_ROWS_V2", "DELETE_ROWS_V2", "GTID", "ANONYMOUS_GTID",
            "PREVIOUS_GTIDS", "TRANSACTION_CONTEXT", "VIEW_CHANGE", "XA_PREPARE", "PARTIAL_UPDATE_ROWS",
            "TRANSACTION_PAYLOAD", "HEARTBEAT_V2", "GTID_TAGGED"};
        System.arraycopy(mysql, 0, NAMES, 0, mysql.length);
        String[] maria = {"MARIA_ANNOTATE_ROWS", "MARIA_BINLOG_CHECKPOINT", "MARIA_GTID", "MARIA_GTID_LIST",
            "MARIA_START_ENCRYPTION", "MARIA_QUERY_COMPRESSED", "MARIA_WRITE_ROWS_COMPRESSED_V1",
            "MARIA_UPDATE_ROWS_COMPRESSED_V1", "MARIA_DELETE_ROWS_COMPRESSED_V1", "MARIA_WRITE_ROWS_COMPRESSED",
            "MARIA_UPDATE_ROWS_COMPRESSED", "MARIA_DELETE_ROWS_COMPRESSED"};
        System.arraycopy(maria, 0, NAMES, MARIA_ANNOTATE_ROWS, maria.length);
    }

    private EventType() {
    }

    /** The name of a type code, {@code TYPE_<n>} for codes no server we know writes. */
    public static String name(int type) {
        String name = type >= 0 && type < NAMES.length ? NAMES[type] : null;
        return name != null ? name : "TYPE_" + type;
    }
}
