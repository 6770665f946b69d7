package dev.canal.binlog.column;

import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;
import dev.canal.binlog.column.JsonText;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * MySQL's binary JSON (the JSON column storage format) to MySQL's JSON text form, as {@code SELECT} prints it:
 * {@code {"a": 1, "b": [true, null]}}, keys in stored order, strings escaped as MySQL does, DECIMAL opaque values
 * as numbers, DATE/TIME/DATETIME/TIMESTAMP opaque values as quoted strings with six fraction digits, other opaque
 * values as {@code "base64:typeNN:..."}; doubles as Canal prints them, in Java's notation ({@link JsonDouble}).
 *
 * <p>Layout: a type byte, then the value. Objects and arrays: element count and byte size (2 bytes each in the
 * small format, 4 in the large), key entries (offset, 2-byte length), value entries (type byte, then an offset
 * relative to the container start, or the value itself for literals and small integers).
 */
public final class JsonBinary {

    static final int SMALL_OBJECT = 0x00;
    static final int LARGE_OBJECT = 0x01;
    static final int SMALL_ARRAY = 0x02;
    static final int LARGE_ARRAY = 0x03;
    static final int LITERAL = 0x04;
    static final int INT16 = 0x05;
    static final int UINT16 = 0x06;
    static final int INT32 = 0x07;
    static final int UINT32 = 0x08;
    static final int INT64 = 0x09;
    static final int UINT64 = 0x0A;
    static final int DOUBLE = 0x0B;
    static final int STRING = 0x0C;
    static final int OPAQUE = 0x0F;

    private static final int LITERAL_NULL = 0;
    private static final int LITERAL_TRUE = 1;
    private static final int LITERAL_FALSE = 2;
    /** MySQL refuses documents nested deeper than 100; anything deeper here is corrupt. */
    private static final int MAX_DEPTH = 150;

    /**
     * Text of a valid document is at most a few times its binary size (escaped control characters in strings are
     * the worst case, 6 chars per byte); corrupt offsets that make containers share children could otherwise
     * expand exponentially.
     */
    private static final int MAX_EXPANSION = 8;
    private static final int EXPANSION_SLACK = 1024;

    private final byte[] buf;
    private final int end;
    private final StringBuilder out;
    private final long maxOutput;

    private JsonBinary(byte[] buf, int end, StringBuilder out, long maxOutput) {
        this.buf = buf;
        this.end = end;
        this.out = out;
        this.maxOutput = maxOutput;
    }

    /** The JSON text of a binary JSON document; an empty value (as MySQL may store) is JSON {@code null}. */
    public static String toJson(byte[] buf, int offset, int length) {
        if (length == 0) {
            return "null";
        }
        if (offset < 0 || length < 0 || offset + length > buf.length) {
            throw new MalformedDataException("JSON value outside its buffer");
        }
        StringBuilder out = new StringBuilder(Math.min(length, 1 << 19) * 2);
        JsonBinary reader = new JsonBinary(buf, offset + length, out,
                (long) length * MAX_EXPANSION + EXPANSION_SLACK);
        reader.value(buf[offset] & 0xFF, offset + 1, offset + length, 0);
        return out.toString();
    }

    /** The JSON text of a value of the given type stored at {@code [pos, limit)}. */
    private void value(int type, int pos, int limit, int depth) {
        if (depth > MAX_DEPTH) {
            throw new MalformedDataException("JSON nested deeper than " + MAX_DEPTH);
        }
        if (out.length() > maxOutput) {
            throw new MalformedDataException("JSON text grows past " + maxOutput + " characters from "
                    + (maxOutput - EXPANSION_SLACK) / MAX_EXPANSION + " bytes: corrupt offsets");
        }
        switch (type) {
            case SMALL_OBJECT -> container(pos, limit, false, true, depth);
            case LARGE_OBJECT -> container(pos, limit, true, true, depth);
            case SMALL_ARRAY -> container(pos, limit, false, false, depth);
            case LARGE_ARRAY -> container(pos, limit, true, false, depth);
            case LITERAL -> literal(u8(pos, limit));
            case INT16 -> out.append((short) uint(pos, 2, limit));
            case UINT16 -> out.append(uint(pos, 2, limit));
            case INT32 -> out.append((int) uint(pos, 4, limit));
            case UINT32 -> out.append(uint(pos, 4, limit));
            case INT64 -> out.append(uint(pos, 8, limit));
            case UINT64 -> out.append(Long.toUnsignedString(uint(pos, 8, limit)));
            case DOUBLE -> out.append(JsonDouble.toText(Double.longBitsToDouble(uint(pos, 8, limit))));
            case STRING -> string(pos, limit);
            case OPAQUE -> opaque(pos, limit);
            default -> throw new MalformedDataException("unknown JSON value type 0x" + Integer.toHexString(type));
        }
    }

    private void container(int start, int limit, boolean large, boolean object, int depth) {
        int width = large ? 4 : 2;
        long count = uint(start, width, limit);
        long size = uint(start + width, width, limit);
        if (size > limit - start || size < 2L * width) {
            throw new MalformedDataException("JSON container of " + size + " bytes in " + (limit - start));
        }
        int containerEnd = start + (int) size;
        int keyEntry = width + 2;
        int valueEntry = 1 + width;
        long headerSize = 2L * width + count * ((object ? keyEntry : 0) + valueEntry);
        if (headerSize > size) {
            throw new MalformedDataException("JSON container with " + count + " elements does not fit " + size + " bytes");
        }
        int n = (int) count;
        int keysAt = start + 2 * width;
        int valuesAt = keysAt + (object ? n * keyEntry : 0);
        out.append(object ? '{' : '[');
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                out.append(", ");
            }
            if (object) {
                int entry = keysAt + i * keyEntry;
                long keyOffset = uint(entry, width, containerEnd);
                int keyLength = (int) uint(entry + width, 2, containerEnd);
                if (keyOffset + keyLength > size) {
                    throw new MalformedDataException("JSON key outside its object");
                }
                quoted(start + (int) keyOffset, keyLength);
                out.append(": ");
            }
            int entry = valuesAt + i * valueEntry;
            int type = u8(entry, containerEnd);
            if (inlined(type, large)) {
                value(type, entry + 1, containerEnd, depth + 1);
            } else {
                long valueOffset = uint(entry + 1, width, containerEnd);
                if (valueOffset >= size) {
                    throw new MalformedDataException("JSON value offset " + valueOffset + " outside its container");
                }
                value(type, start + (int) valueOffset, containerEnd, depth + 1);
            }
        }
        out.append(object ? '}' : ']');
    }

    private static boolean inlined(int type, boolean large) {
        return switch (type) {
            case LITERAL, INT16, UINT16 -> true;
            case INT32, UINT32 -> large;
            default -> false;
        };
    }

    private void literal(int literal) {
        switch (literal) {
            case LITERAL_NULL -> out.append("null");
            case LITERAL_TRUE -> out.append("true");
            case LITERAL_FALSE -> out.append("false");
            default -> throw new MalformedDataException("unknown JSON literal " + literal);
        }
    }

    private void string(int pos, int limit) {
        long[] lengthAndSize = varLength(pos, limit);
        int start = pos + (int) lengthAndSize[1];
        quoted(start, checkedRange(start, lengthAndSize[0], limit));
    }

    private void opaque(int pos, int limit) {
        int fieldType = u8(pos, limit);
        long[] lengthAndSize = varLength(pos + 1, limit);
        int start = pos + 1 + (int) lengthAndSize[1];
        int length = checkedRange(start, lengthAndSize[0], limit);
        switch (fieldType) {
            case ColumnType.NEWDECIMAL -> {
                if (length < 2) {
                    throw new MalformedDataException("JSON DECIMAL opaque value of " + length + " bytes");
                }
                LittleEndianCursor c = new LittleEndianCursor(buf, start + 2, length - 2);
                BigDecimal d = DecimalCodec.read(c, buf[start] & 0xFF, buf[start + 1] & 0xFF);
                out.append(d.toPlainString());
            }
            case ColumnType.DATE -> out.append('"').append(ColumnDecoder.packedDate(packed(start, length))).append('"');
            case ColumnType.TIME -> out.append('"').append(ColumnDecoder.packedTime(packed(start, length), 6)).append('"');
            case ColumnType.DATETIME, ColumnType.TIMESTAMP ->
                    out.append('"').append(ColumnDecoder.packedDatetime(packed(start, length), 6)).append('"');
            default -> {
                byte[] raw = new byte[length];
                System.arraycopy(buf, start, raw, 0, length);
                out.append("\"base64:type").append(fieldType).append(':')
                        .append(Base64.getEncoder().encodeToString(raw)).append('"');
            }
        }
    }

    private long packed(int start, int length) {
        if (length != 8) {
            throw new MalformedDataException("JSON temporal opaque value of " + length + " bytes, expected 8");
        }
        return uint(start, 8, end);
    }

    /** Variable-length length: 7 bits per byte, low bits first, at most 5 bytes. Returns {length, bytes used}. */
    private long[] varLength(int pos, int limit) {
        long length = 0;
        for (int i = 0; i < 5; i++) {
            int b = u8(pos + i, limit);
            length |= (long) (b & 0x7F) << (7 * i);
            if ((b & 0x80) == 0) {
                return new long[] {length, i + 1};
            }
        }
        throw new MalformedDataException("JSON string length longer than 5 bytes");
    }

    private static int checkedRange(int start, long length, int limit) {
        if (length < 0 || length > limit - start) {
            throw new MalformedDataException("JSON string of " + length + " bytes runs past its value");
        }
        return (int) length;
    }

    /** Appends bytes as a JSON string: UTF-8 kept, quote, backslash and control characters escaped. */
    private void quoted(int start, int length) {
        JsonText.appendQuoted(out, new String(buf, start, length, StandardCharsets.UTF_8));
    }

    private int u8(int pos, int limit) {
        if (pos < 0 || pos >= limit || pos >= end) {
            throw new MalformedDataException("JSON value runs past its end");
        }
        return buf[pos] & 0xFF;
    }

    private long uint(int pos, int width, int limit) {
        if (pos < 0 || pos + width > limit || pos + width > end) {
            throw new MalformedDataException("JSON value runs past its end");
        }
        long v = 0;
        for (int i = 0; i < width; i++) {
            v |= (buf[pos + i] & 0xFFL) << (8 * i);
        }
        return v;
    }
}
