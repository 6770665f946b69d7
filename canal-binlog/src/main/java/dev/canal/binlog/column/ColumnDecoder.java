package dev.canal.binlog.column;

import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;

/**
 * The one place that knows, per column type, how many TABLE_MAP metadata bytes a column has and how its value
 * is stored in a row image. Value types are listed in the package documentation.
 */
public final class ColumnDecoder {

    private static final long DATETIMEF_INT_OFS = 0x8000000000L;
    private static final long TIMEF_INT_OFS = 0x800000L;
    private static final long TIMEF_OFS = 0x800000000000L;
    private static final int YEAR_BASE = 1900;
    private static final int MAX_FSP = 6;

    private ColumnDecoder() {
    }

    /** Reads a column's TABLE_MAP metadata and packs it into one int (see the cases for the layout). */
    public static int readMetadata(int type, LittleEndianCursor c) {
        return switch (type) {
            case ColumnType.FLOAT, ColumnType.DOUBLE, ColumnType.BLOB, ColumnType.TINY_BLOB, ColumnType.MEDIUM_BLOB,
                    ColumnType.LONG_BLOB, ColumnType.GEOMETRY, ColumnType.JSON, ColumnType.VECTOR,
                    ColumnType.BLOB_COMPRESSED, ColumnType.TIME2, ColumnType.DATETIME2, ColumnType.TIMESTAMP2 ->
                    c.uint8();
            // maximum length in bytes, little-endian
            case ColumnType.VARCHAR, ColumnType.VAR_STRING, ColumnType.VARCHAR_COMPRESSED -> c.uint16();
            // bits in the last byte | whole bytes << 8
            case ColumnType.BIT -> c.uint16();
            // precision << 8 | scale; real type << 8 | length
            case ColumnType.NEWDECIMAL, ColumnType.STRING, ColumnType.ENUM, ColumnType.SET -> {
                int first = c.uint8();
                yield first << 8 | c.uint8();
            }
            default -> 0;
        };
    }

    /**
     * Decodes one non-NULL value of a column of binlog type {@code type} with metadata {@code meta} at the
     * cursor, leaving the cursor after it.
     *
     * @throws MalformedDataException when the value runs past the image or the type is not one a binlog holds
     */
    public static Object decode(int type, int meta, LittleEndianCursor c) {
        switch (type) {
            case ColumnType.TINY:
                return (long) c.int8();
            case ColumnType.SHORT:
                return (long) c.int16();
            case ColumnType.INT24:
                return (long) c.int24();
            case ColumnType.LONG:
                return (long) c.int32();
            case ColumnType.LONGLONG:
                return c.int64();
            case ColumnType.FLOAT:
                return c.float32();
            case ColumnType.DOUBLE:
                return c.float64();
            case ColumnType.NEWDECIMAL:
                return DecimalCodec.read(c, meta >> 8, meta & 0xFF);
            case ColumnType.BIT:
                return bit(meta, c);
            case ColumnType.YEAR: {
                int y = c.uint8();
                return y == 0 ? 0 : YEAR_BASE + y;
            }
            case ColumnType.DATE:
            case ColumnType.NEWDATE:
                return date(c.uint24());
            case ColumnType.TIME:
                return oldTime(c.int24());
            case ColumnType.TIME2:
                return time2(meta, c);
            case ColumnType.DATETIME:
                return oldDatetime(c.int64());
            case ColumnType.DATETIME2:
                return datetime2(meta, c);
            case ColumnType.TIMESTAMP:
                return new TimestampValue(c.uint32(), 0, 0);
            case ColumnType.TIMESTAMP2:
                return timestamp2(meta, c);
            case ColumnType.VARCHAR:
            case ColumnType.VAR_STRING:
                return c.bytes(meta < 256 ? c.uint8() : c.uint16());
            case ColumnType.STRING:
            case ColumnType.ENUM:
            case ColumnType.SET:
                return string(type, meta, c);
            case ColumnType.BLOB:
            case ColumnType.TINY_BLOB:
            case ColumnType.MEDIUM_BLOB:
            case ColumnType.LONG_BLOB:
            case ColumnType.GEOMETRY:
            case ColumnType.VECTOR:
                return c.bytes(blobLength(meta, c));
            case ColumnType.JSON: {
                int length = blobLength(meta, c);
                int start = c.position();
                c.skip(length);
                return JsonBinary.toJson(c.array(), start, length);
            }
            case ColumnType.VARCHAR_COMPRESSED:
                return MariaCompressedColumn.inflate(c, meta < 256 ? c.uint8() : c.uint16());
            case ColumnType.BLOB_COMPRESSED:
                return MariaCompressedColumn.inflate(c, blobLength(meta, c));
            case ColumnType.NULL:
                return null;
            // DECIMAL (pre-5.0.3 decimals) carries no metadata in the TABLE_MAP, so its width is unknowable.
            default:
                throw new MalformedDataException("column type " + ColumnType.name(type)
                        + " cannot be decoded from a row image (offset " + c.offset() + ")");
        }
    }

    /** Length prefix of BLOB-like values: {@code meta} bytes (1-4), little-endian, checked against what is left. */
    public static int blobLength(int meta, LittleEndianCursor c) {
        // one fixed-width read per width: this runs for every TEXT/BLOB/JSON value
        long length = switch (meta) {
            case 1 -> c.uint8();
            case 2 -> c.uint16();
            case 3 -> c.uint24();
            case 4 -> c.uint32();
            default -> throw new MalformedDataException("BLOB length width " + meta + " at offset " + c.offset());
        };
        return c.checkedLength(length);
    }

    private static Long bit(int meta, LittleEndianCursor c) {
        int bytes = (meta >> 8) + ((meta & 0xFF) + 7) / 8;
        if (bytes > 8) {
            throw new MalformedDataException("BIT column of " + bytes + " bytes at offset " + c.offset());
        }
        return bytes == 0 ? 0L : c.uintBigEndian(bytes);
    }

    private static Object string(int type, int meta, LittleEndianCursor c) {
        int realType = ColumnType.realType(type, meta);
        int byte0 = meta >> 8;
        int length = (byte0 & 0x30) != 0x30 ? (meta & 0xFF) | (((byte0 & 0x30) ^ 0x30) << 4) : meta & 0xFF;
        if (realType == ColumnType.ENUM) {
            return (int) c.uintN(checkWidth(length, 2, c));
        }
        if (realType == ColumnType.SET) {
            return c.uintN(checkWidth(length, 8, c));
        }
        return c.bytes(length < 256 ? c.uint8() : c.uint16());
    }

    private static int checkWidth(int width, int max, LittleEndianCursor c) {
        if (width < 1 || width > max) {
            throw new MalformedDataException("ENUM/SET width " + width + " at offset " + c.offset());
        }
        return width;
    }

    private static DateValue date(int v) {
        return new DateValue(v >> 9, (v >> 5) & 0x0F, v & 0x1F);
    }

    /** Pre-5.6 TIME: a signed integer hhmmss. */
    private static TimeValue oldTime(int v) {
        int abs = Math.abs(v);
        return new TimeValue(v < 0, abs / 10000, abs / 100 % 100, abs % 100, 0, 0);
    }

    /** Pre-5.6 DATETIME: an integer YYYYMMDDhhmmss. */
    private static DatetimeValue oldDatetime(long v) {
        if (v < 0) {
            // MariaDB's own DATETIME(n) format (mysql56_temporal_format=OFF) is logged with this type code but
            // without its precision, so it cannot be decoded from the binlog alone
            throw new MalformedDataException("DATETIME value " + v + " is not a pre-5.6 DATETIME (a MariaDB"
                    + " DATETIME(n) with mysql56_temporal_format=OFF cannot be decoded from the binlog)");
        }
        long date = v / 1_000_000;
        long time = v % 1_000_000;
        return new DatetimeValue((int) (date / 10000), (int) (date / 100 % 100), (int) (date % 100),
                (int) (time / 10000), (int) (time / 100 % 100), (int) (time % 100), 0, 0);
    }

    private static int checkFsp(int fsp, LittleEndianCursor c) {
        if (fsp > MAX_FSP) {
            throw new MalformedDataException("fractional seconds precision " + fsp + " at offset " + c.offset());
        }
        return fsp;
    }

    /** Microseconds stored after a TIMESTAMP2/DATETIME2 integer part: 1, 2 or 3 big-endian signed bytes. */
    private static int fraction(int fsp, LittleEndianCursor c) {
        return switch (fsp) {
            case 1, 2 -> (byte) c.uint8() * 10_000;
            case 3, 4 -> (short) c.uintBigEndian(2) * 100;
            case 5, 6 -> (int) c.uintBigEndian(3) << 8 >> 8;
            default -> 0;
        };
    }

    private static DatetimeValue datetime2(int meta, LittleEndianCursor c) {
        int fsp = checkFsp(meta, c);
        long intPart = c.uintBigEndian(5) - DATETIMEF_INT_OFS;
        int micros = fraction(fsp, c);
        if (intPart < 0) {
            throw new MalformedDataException("negative DATETIME2 at offset " + c.offset());
        }
        long ymd = intPart >> 17;
        long ym = ymd >> 5;
        long hms = intPart & 0x1FFFF;
        return new DatetimeValue((int) (ym / 13), (int) (ym % 13), (int) (ymd & 0x1F), (int) (hms >> 12),
                (int) ((hms >> 6) & 0x3F), (int) (hms & 0x3F), micros, fsp);
    }

    private static TimestampValue timestamp2(int meta, LittleEndianCursor c) {
        int fsp = checkFsp(meta, c);
        long seconds = c.uintBigEndian(4);
        int micros = fraction(fsp, c);
        return new TimestampValue(seconds, Math.max(micros, 0), fsp);
    }

    /** TIME2: a 3-byte integer part offset by 0x800000 and a fraction; negative values borrow from the part. */
    private static TimeValue time2(int meta, LittleEndianCursor c) {
        int fsp = checkFsp(meta, c);
        long packed;
        switch (fsp) {
            case 1, 2 -> {
                long intPart = c.uintBigEndian(3) - TIMEF_INT_OFS;
                long frac = c.uint8();
                if (intPart < 0 && frac != 0) {
                    intPart++;
                    frac -= 0x100;
                }
                packed = (intPart << 24) + frac * 10_000;
            }
            case 3, 4 -> {
                long intPart = c.uintBigEndian(3) - TIMEF_INT_OFS;
                long frac = c.uintBigEndian(2);
                if (intPart < 0 && frac != 0) {
                    intPart++;
                    frac -= 0x10000;
                }
                packed = (intPart << 24) + frac * 100;
            }
            case 5, 6 -> packed = c.uintBigEndian(6) - TIMEF_OFS;
            default -> packed = (c.uintBigEndian(3) - TIMEF_INT_OFS) << 24;
        }
        return packedTime(packed, fsp);
    }

    /** MySQL's packed time ({@code hms << 24 | microseconds}, negated when negative). */
    static TimeValue packedTime(long packed, int fsp) {
        boolean negative = packed < 0;
        long abs = Math.abs(packed);
        int micros = (int) (abs & 0xFFFFFF);
        long hms = abs >> 24;
        return new TimeValue(negative, (int) ((hms >> 12) & 0x3FF), (int) ((hms >> 6) & 0x3F), (int) (hms & 0x3F),
                micros, fsp);
    }

    /** The date of MySQL's packed datetime (year*13+month, day, hms, microseconds). */
    static DateValue packedDate(long packed) {
        long ymd = Math.abs(packed) >> 41;
        long ym = ymd >> 5;
        return new DateValue((int) (ym / 13), (int) (ym % 13), (int) (ymd & 0x1F));
    }

    /** MySQL's packed datetime (year*13+month, day, hms, microseconds). */
    static DatetimeValue packedDatetime(long packed, int fsp) {
        long abs = Math.abs(packed);
        int micros = (int) (abs & 0xFFFFFF);
        long ymdhms = abs >> 24;
        long ymd = ymdhms >> 17;
        long ym = ymd >> 5;
        long hms = ymdhms & 0x1FFFF;
        return new DatetimeValue((int) (ym / 13), (int) (ym % 13), (int) (ymd & 0x1F), (int) (hms >> 12),
                (int) ((hms >> 6) & 0x3F), (int) (hms & 0x3F), micros, fsp);
    }
}
