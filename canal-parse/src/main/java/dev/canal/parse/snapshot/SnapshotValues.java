package dev.canal.parse.snapshot;

import dev.canal.parse.SourceFlavour;
import dev.canal.binlog.column.DateValue;
import dev.canal.binlog.column.DatetimeValue;
import dev.canal.binlog.column.TimeValue;
import dev.canal.binlog.column.TimestampValue;
import dev.canal.parse.convert.RenderKind;
import dev.canal.parse.meta.ColumnMeta;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Reads a column of a snapshot chunk in the form the binlog decoder gives the same value, so that one renderer
 * makes both paths' text (docs/snapshots.md, "Values"): each column is selected through an expression whose
 * result carries the stored value exactly ({@link #select}), and read back into the decoded form
 * ({@link #read}).
 */
final class SnapshotValues {

    private static final BigDecimal MICROS_PER_SECOND = BigDecimal.valueOf(1_000_000);

    private SnapshotValues() {
    }

    /** The select-list expression for {@code column}, named {@code quoted}. */
    static String select(ColumnMeta column, String quoted) {
        return switch (RenderKind.of(column.dataType())) {
            // the numeric value of BIT, YEAR, ENUM (its index) and SET (its bitmask), as the row image stores them
            // as BIGINT UNSIGNED: an addition of 0 may type the result DOUBLE, which drivers print with a fraction
            case BIT, YEAR, ENUM, SET -> "CAST(" + quoted + " AS UNSIGNED)";
            // a FLOAT widened exactly to DOUBLE, whose text keeps every digit (a FLOAT's own text may round)
            case FLOAT -> "(" + quoted + " + 0E0)";
            // seconds since the epoch, with the column's fraction digits: independent of the session's time zone
            case TIMESTAMP -> "UNIX_TIMESTAMP(" + quoted + ")";
            case DATE, TIME, DATETIME -> "CAST(" + quoted + " AS CHAR)";
            default -> quoted;
        };
    }

    /**
     * Column {@code index} of the current row of {@code rs}, decoded as the binlog rows decode it; null for NULL.
     *
     * @param flavour the source's, which says whether its JSON reads back as the text written
     */
    static Object read(ColumnMeta column, ResultSet rs, int index, SourceFlavour flavour) throws SQLException {
        RenderKind kind = RenderKind.of(column.dataType());
        return switch (kind) {
            case BINARY, BINARY_LIKE -> rs.getBytes(index);
            case TINYINT, SMALLINT, MEDIUMINT, INT, BIGINT -> {
                String text = rs.getString(index);
                yield text == null ? null : asStored(text, column.unsigned(), bits(kind));
            }
            case FLOAT -> {
                double d = rs.getDouble(index);
                yield rs.wasNull() ? null : (float) d;
            }
            case DOUBLE -> {
                double d = rs.getDouble(index);
                yield rs.wasNull() ? null : d;
            }
            case DECIMAL -> rs.getBigDecimal(index);
            case BIT, SET -> {
                String text = rs.getString(index);
                yield text == null ? null : Long.parseUnsignedLong(text);
            }
            case YEAR, ENUM -> {
                String text = rs.getString(index);
                yield text == null ? null : Integer.parseInt(text);
            }
            case TIMESTAMP -> {
                BigDecimal epoch = rs.getBigDecimal(index);
                yield epoch == null ? null : timestamp(epoch);
            }
            case DATE -> {
                String text = rs.getString(index);
                yield text == null ? null : date(text);
            }
            case TIME -> {
                String text = rs.getString(index);
                yield text == null ? null : time(text);
            }
            case DATETIME -> {
                String text = rs.getString(index);
                yield text == null ? null : datetime(text);
            }
            case JSON -> {
                String text = rs.getString(index);
                yield text == null || flavour.jsonIsText() ? text : JsonDoubleText.of(text);
            }
            default -> rs.getString(index);
        };
    }

    private static int bits(RenderKind kind) {
        return switch (kind) {
            case TINYINT -> 8;
            case SMALLINT -> 16;
            case MEDIUMINT -> 24;
            case INT -> 32;
            default -> 64;
        };
    }

    /** An integer as the row image holds it: an unsigned value of the upper half as the negative it is stored as. */
    static long asStored(String text, boolean unsigned, int bits) {
        if (!unsigned) {
            return Long.parseLong(text);
        }
        long value = Long.parseUnsignedLong(text);
        return bits < 64 && value >= 1L << (bits - 1) ? value - (1L << bits) : value;
    }

    static TimestampValue timestamp(BigDecimal epoch) {
        long seconds = epoch.longValue();
        int micros = epoch.subtract(BigDecimal.valueOf(seconds)).multiply(MICROS_PER_SECOND).intValue();
        return new TimestampValue(seconds, micros, Math.max(0, epoch.scale()));
    }

    /** {@code YYYY-MM-DD}. */
    static DateValue date(String text) {
        return new DateValue(Integer.parseInt(text, 0, 4, 10), Integer.parseInt(text, 5, 7, 10),
                Integer.parseInt(text, 8, 10, 10));
    }

    /** {@code YYYY-MM-DD hh:mm:ss[.f...]}. */
    static DatetimeValue datetime(String text) {
        int[] fraction = fraction(text, 19);
        return new DatetimeValue(Integer.parseInt(text, 0, 4, 10), Integer.parseInt(text, 5, 7, 10),
                Integer.parseInt(text, 8, 10, 10), Integer.parseInt(text, 11, 13, 10),
                Integer.parseInt(text, 14, 16, 10), Integer.parseInt(text, 17, 19, 10), fraction[0], fraction[1]);
    }

    /** {@code [-]h...h:mm:ss[.f...]}. */
    static TimeValue time(String text) {
        boolean negative = text.startsWith("-");
        int start = negative ? 1 : 0;
        int colon = text.indexOf(':', start);
        int[] fraction = fraction(text, colon + 6);
        return new TimeValue(negative, Integer.parseInt(text, start, colon, 10),
                Integer.parseInt(text, colon + 1, colon + 3, 10), Integer.parseInt(text, colon + 4, colon + 6, 10),
                fraction[0], fraction[1]);
    }

    /** The microseconds and the digit count of the fraction that may follow {@code at}: {micros, fsp}. */
    private static int[] fraction(String text, int at) {
        if (text.length() <= at + 1 || text.charAt(at) != '.') {
            return new int[] {0, 0};
        }
        int digits = text.length() - at - 1;
        int micros = Integer.parseInt(text, at + 1, text.length(), 10);
        for (int i = digits; i < 6; i++) {
            micros *= 10;
        }
        return new int[] {micros, digits};
    }
}
