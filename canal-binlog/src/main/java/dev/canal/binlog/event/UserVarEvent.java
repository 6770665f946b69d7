package dev.canal.binlog.event;

/**
 * USER_VAR: a user variable used by the next statement (STATEMENT format).
 *
 * @param valueType {@link #STRING}, {@link #REAL}, {@link #INT} or {@link #DECIMAL}
 * @param charset   collation id of a string value
 * @param value     null for SQL NULL, else byte[] (STRING), Double (REAL), Long (INT; unsigned when
 *                  {@code unsigned}) or BigDecimal (DECIMAL)
 */
public record UserVarEvent(EventHeader header, String name, int valueType, int charset, Object value,
        boolean unsigned) implements BinlogEvent {

    public static final int STRING = 0;
    public static final int REAL = 1;
    public static final int INT = 2;
    public static final int ROW = 3;
    public static final int DECIMAL = 4;
}
