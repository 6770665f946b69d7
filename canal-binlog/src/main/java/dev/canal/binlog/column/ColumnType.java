package dev.canal.binlog.column;

/** Binlog column type codes (MySQL {@code enum_field_types}, plus MariaDB's compressed columns). */
public final class ColumnType {

    public static final int DECIMAL = 0;
    public static final int TINY = 1;
    public static final int SHORT = 2;
    public static final int LONG = 3;
    public static final int FLOAT = 4;
    public static final int DOUBLE = 5;
    public static final int NULL = 6;
    public static final int TIMESTAMP = 7;
    public static final int LONGLONG = 8;
    public static final int INT24 = 9;
    public static final int DATE = 10;
    public static final int TIME = 11;
    public static final int DATETIME = 12;
    public static final int YEAR = 13;
    public static final int NEWDATE = 14;
    public static final int VARCHAR = 15;
    public static final int BIT = 16;
    public static final int TIMESTAMP2 = 17;
    public static final int DATETIME2 = 18;
    public static final int TIME2 = 19;
    /** MariaDB: BLOB/TEXT with the COMPRESSED attribute (1 metadata byte, like BLOB). */
    public static final int BLOB_COMPRESSED = 140;
    /** MariaDB: VARCHAR/VARBINARY with the COMPRESSED attribute (2 metadata bytes, like VARCHAR). */
    public static final int VARCHAR_COMPRESSED = 141;
    /** MySQL 9.0+. */
    public static final int VECTOR = 242;
    public static final int JSON = 245;
    public static final int NEWDECIMAL = 246;
    public static final int ENUM = 247;
    public static final int SET = 248;
    public static final int TINY_BLOB = 249;
    public static final int MEDIUM_BLOB = 250;
    public static final int LONG_BLOB = 251;
    public static final int BLOB = 252;
    public static final int VAR_STRING = 253;
    public static final int STRING = 254;
    public static final int GEOMETRY = 255;

    private ColumnType() {
    }

    /**
     * The real type of a column: ENUM and SET are logged as STRING with the real type in the first metadata
     * byte (which for CHAR longer than 255 bytes also carries two length bits).
     */
    public static int realType(int type, int meta) {
        if (type != STRING || meta == 0) {
            return type;
        }
        int byte0 = meta >> 8;
        if ((byte0 & 0x30) != 0x30) {
            return STRING;
        }
        return byte0 == ENUM || byte0 == SET ? byte0 : STRING;
    }

    /** Columns counted by the SIGNEDNESS metadata. */
    public static boolean isNumeric(int realType) {
        return switch (realType) {
            case TINY, SHORT, INT24, LONG, LONGLONG, FLOAT, DOUBLE, NEWDECIMAL, DECIMAL -> true;
            default -> false;
        };
    }

    /** Columns counted by the DEFAULT_CHARSET / COLUMN_CHARSET metadata (ENUM and SET have their own). */
    public static boolean isCharacter(int realType) {
        return switch (realType) {
            case STRING, VAR_STRING, VARCHAR, BLOB, TINY_BLOB, MEDIUM_BLOB, LONG_BLOB, VARCHAR_COMPRESSED,
                    BLOB_COMPRESSED -> true;
            default -> false;
        };
    }

    public static boolean isEnumOrSet(int realType) {
        return realType == ENUM || realType == SET;
    }

    public static String name(int type) {
        return switch (type) {
            case DECIMAL -> "DECIMAL";
            case TINY -> "TINY";
            case SHORT -> "SHORT";
            case LONG -> "LONG";
            case FLOAT -> "FLOAT";
            case DOUBLE -> "DOUBLE";
            case NULL -> "NULL";
            case TIMESTAMP -> "TIMESTAMP";
            case LONGLONG -> "LONGLONG";
            case INT24 -> "INT24";
            case DATE -> "DATE";
            case TIME -> "TIME";
            case DATETIME -> "DATETIME";
            case YEAR -> "YEAR";
            case NEWDATE -> "NEWDATE";
            case VARCHAR -> "VARCHAR";
            case BIT -> "BIT";
            case TIMESTAMP2 -> "TIMESTAMP2";
            case DATETIME2 -> "DATETIME2";
            case TIME2 -> "TIME2";
            case VARCHAR_COMPRESSED -> "VARCHAR_COMPRESSED";
            case BLOB_COMPRESSED -> "BLOB_COMPRESSED";
            case VECTOR -> "VECTOR";
            case JSON -> "JSON";
            case NEWDECIMAL -> "NEWDECIMAL";
            case ENUM -> "ENUM";
            case SET -> "SET";
            case TINY_BLOB -> "TINY_BLOB";
            case MEDIUM_BLOB -> "MEDIUM_BLOB";
            case LONG_BLOB -> "LONG_BLOB";
            case BLOB -> "BLOB";
            case VAR_STRING -> "VAR_STRING";
            case STRING -> "STRING";
            case GEOMETRY -> "GEOMETRY";
            default -> "TYPE_" + type;
        };
    }
}
