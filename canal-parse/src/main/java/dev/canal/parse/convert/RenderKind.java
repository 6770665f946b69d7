package dev.canal.parse.convert;

import java.sql.Types;

/**
 * How {@link ColumnRenderer} turns a column's values into text, resolved from the column's lower-case type name
 * once per table definition ({@link ColumnHeaders}) rather than by comparing type names for every value.
 */
public enum RenderKind {
    TINYINT(Types.TINYINT),
    SMALLINT(Types.SMALLINT),
    MEDIUMINT(Types.INTEGER),
    INT(Types.INTEGER),
    BIGINT(Types.BIGINT),
    FLOAT(Types.REAL),
    DOUBLE(Types.DOUBLE),
    DECIMAL(Types.DECIMAL),
    BIT(Types.BIT),
    YEAR(Types.VARCHAR),
    DATE(Types.DATE),
    TIME(Types.TIME),
    DATETIME(Types.TIMESTAMP),
    TIMESTAMP(Types.TIMESTAMP),
    ENUM(Types.INTEGER),
    /** Canal reports a NULL SET as BLOB. */
    SET(Types.BLOB),
    CHAR(Types.CHAR),
    VARCHAR(Types.VARCHAR),
    TEXT(Types.CLOB),
    /** sqlType depends on the source: {@link ColumnRenderer}. */
    JSON(Types.VARCHAR),
    BINARY(Types.BLOB),
    INET6(Types.CHAR),
    INET4(Types.CHAR),
    /** MariaDB's UUID: CHAR, as Canal reports it. */
    UUID(Types.CHAR),
    /** VARBINARY, the BLOBs and the geometry types: ISO-8859-1 text, BLOB. */
    BINARY_LIKE(Types.BLOB),
    /** Anything else: its text, VARCHAR. */
    OTHER(Types.VARCHAR);

    private final int nullSqlType;

    RenderKind(int nullSqlType) {
        this.nullSqlType = nullSqlType;
    }

    /** sqlType of a NULL value of this kind (JSON's is the renderer's). */
    int nullSqlType() {
        return nullSqlType;
    }

    /** The kind of a column of the lower-case type name {@code dataType}. */
    public static RenderKind of(String dataType) {
        return switch (dataType) {
            case "tinyint" -> TINYINT;
            case "smallint" -> SMALLINT;
            case "mediumint" -> MEDIUMINT;
            case "int", "integer" -> INT;
            case "bigint" -> BIGINT;
            case "float" -> FLOAT;
            case "double", "real" -> DOUBLE;
            case "decimal", "numeric" -> DECIMAL;
            case "bit" -> BIT;
            case "year" -> YEAR;
            case "date" -> DATE;
            case "time" -> TIME;
            case "datetime" -> DATETIME;
            case "timestamp" -> TIMESTAMP;
            case "enum" -> ENUM;
            case "set" -> SET;
            case "char" -> CHAR;
            case "varchar" -> VARCHAR;
            case "tinytext", "text", "mediumtext", "longtext" -> TEXT;
            case "json" -> JSON;
            case "binary" -> BINARY;
            case "inet6" -> INET6;
            case "inet4" -> INET4;
            case "uuid" -> UUID;
            case "varbinary", "tinyblob", "blob", "mediumblob", "longblob", "geometry", "point", "linestring",
                    "polygon", "multipoint", "multilinestring", "multipolygon", "geometrycollection",
                    "geomcollection" -> BINARY_LIKE;
            default -> OTHER;
        };
    }
}
