package dev.canal.binlog.tool;

import dev.canal.binlog.column.ColumnType;
import dev.canal.binlog.column.JsonDiff;
import dev.canal.binlog.column.PartialJson;
import dev.canal.binlog.column.TemporalText;
import dev.canal.binlog.column.TemporalValue;
import dev.canal.binlog.column.TimestampValue;
import dev.canal.binlog.event.RowChange;
import dev.canal.binlog.event.TableMapEvent;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.BitSet;
import java.util.List;

/**
 * Renders decoded row images for binlog-dump: UNSIGNED applied when the TABLE_MAP says so, TIMESTAMPs in UTC,
 * text as UTF-8 when it is valid UTF-8 and the column is not binary, other bytes as {@code 0x} hex, JSON as is.
 */
final class DumpValues {

    private static final int BINARY_COLLATION = 63;

    private DumpValues() {
    }

    static String rows(DumpLine line, List<RowChange> rows, TableMapEvent table, BitSet before, BitSet after) {
        StringBuilder sb = new StringBuilder("[");
        for (int r = 0; r < rows.size(); r++) {
            RowChange row = rows.get(r);
            sb.append(r == 0 ? "" : ", ").append('{');
            boolean first = true;
            if (row.before() != null) {
                sb.append(line.json() ? "\"before\":" : "before:");
                image(sb, line, row.before(), table, before);
                first = false;
            }
            if (row.after() != null) {
                sb.append(first ? "" : (line.json() ? "," : " ")).append(line.json() ? "\"after\":" : "after:");
                image(sb, line, row.after(), table, after);
            }
            sb.append('}');
        }
        return sb.append(']').toString();
    }

    private static void image(StringBuilder sb, DumpLine line, Object[] values, TableMapEvent table, BitSet present) {
        sb.append(line.json() ? '{' : '(');
        boolean first = true;
        for (int col = present.nextSetBit(0); col >= 0 && col < values.length; col = present.nextSetBit(col + 1)) {
            sb.append(first ? "" : (line.json() ? "," : ", "));
            first = false;
            String name = table.metadata().columnName(col);
            String key = name != null ? name : "@" + (col + 1);
            sb.append(line.json() ? line.quote(key) + ":" : key + "=");
            sb.append(value(line, values[col], table, col));
        }
        sb.append(line.json() ? '}' : ')');
    }

    static String value(DumpLine line, Object v, TableMapEvent table, int col) {
        if (v == null) {
            return line.json() ? "null" : "NULL";
        }
        int type = table.realType(col);
        if (v instanceof Long l) {
            return table.metadata().isUnsigned(col) ? unsigned(l, type) : Long.toString(l);
        }
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (v instanceof Float || v instanceof Double || v instanceof Integer) {
            String s = v.toString();
            return line.json() && (s.contains("N") || s.contains("I")) ? line.quote(s) : s;
        }
        if (v instanceof String s) {
            return type == ColumnType.JSON && line.json() ? s : line.quote(s);
        }
        if (v instanceof TemporalValue t) {
            return line.quote(t.toString());
        }
        if (v instanceof TimestampValue ts) {
            return line.quote(timestamp(ts));
        }
        if (v instanceof PartialJson p) {
            StringBuilder sb = new StringBuilder();
            for (JsonDiff d : p.diffs()) {
                sb.append(sb.length() == 0 ? "" : ", ").append(d.operation()).append(' ').append(d.path());
                if (d.value() != null) {
                    sb.append(' ').append(d.value());
                }
            }
            return line.quote("JSON_DIFF(" + sb + ")");
        }
        if (v instanceof byte[] bytes) {
            boolean binary = table.metadata().charset(col) == BINARY_COLLATION || type == ColumnType.GEOMETRY
                    || type == ColumnType.VECTOR;
            String text = binary ? null : utf8(bytes);
            return text != null ? line.quote(text) : line.quote(hex(bytes));
        }
        return line.quote(v.toString());
    }

    static String timestamp(TimestampValue ts) {
        if (ts.isZero()) {
            return TemporalText.datetime(0, 0, 0, 0, 0, 0, 0, ts.fsp());
        }
        LocalDateTime t = LocalDateTime.ofEpochSecond(ts.epochSeconds(), 0, ZoneOffset.UTC);
        return TemporalText.datetime(t.getYear(), t.getMonthValue(), t.getDayOfMonth(), t.getHour(), t.getMinute(),
                t.getSecond(), ts.micros(), ts.fsp());
    }

    private static String unsigned(long v, int type) {
        return switch (type) {
            case ColumnType.TINY -> Long.toString(v & 0xFFL);
            case ColumnType.SHORT -> Long.toString(v & 0xFFFFL);
            case ColumnType.INT24 -> Long.toString(v & 0xFFFFFFL);
            case ColumnType.LONG -> Long.toString(v & 0xFFFFFFFFL);
            default -> Long.toUnsignedString(v);
        };
    }

    private static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    static String hex(byte[] bytes) {
        char[] digits = "0123456789ABCDEF".toCharArray();
        StringBuilder sb = new StringBuilder(2 + bytes.length * 2).append("0x");
        for (byte b : bytes) {
            sb.append(digits[(b >> 4) & 0xF]).append(digits[b & 0xF]);
        }
        return sb.toString();
    }
}
