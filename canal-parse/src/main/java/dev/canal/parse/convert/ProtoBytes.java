package dev.canal.parse.convert;

import java.util.Arrays;

/**
 * A growable byte array with the few protobuf encodings {@link RowChangeWriter} needs: single-byte tags, varints
 * and raw bytes. Writing here instead of through a {@code CodedOutputStream} of a pre-computed size lets each
 * column be encoded once, as soon as it is rendered.
 */
final class ProtoBytes {

    /**
     * Growing doubles the needed size while it is small and adds at most this much once it is large: a 16 MiB
     * blob's column followed by a few bytes must not make a 32 MiB array (docs/reliability.md, scenario 9).
     */
    private static final int MAX_HEADROOM = 4 << 20;
    /** Field numbers of the Column message after its head (EntryProtocol.proto). */
    private static final int COLUMN_UPDATED = 5;
    private static final int COLUMN_IS_NULL = 6;
    private static final int COLUMN_VALUE = 8;
    private static final int LENGTH_DELIMITED = 2;
    private static final int MAX_VARINT32_BYTES = 5;

    private byte[] bytes;
    private int length;

    ProtoBytes(int initialCapacity) {
        bytes = new byte[initialCapacity];
    }

    int length() {
        return length;
    }

    int capacity() {
        return bytes.length;
    }

    /** The backing array: its first {@link #length()} bytes are the content. */
    byte[] array() {
        return bytes;
    }

    void clear() {
        length = 0;
    }

    /** A tag of a field numbered below 16, which protobuf encodes in one byte. */
    void tag(int fieldNumber, int wireType) {
        ensure(1);
        bytes[length++] = (byte) (fieldNumber << 3 | wireType);
    }

    /** An unsigned varint (lengths, non-negative ints). */
    void uint32(int value) {
        ensure(MAX_VARINT32_BYTES);
        length = varint(bytes, length, value);
    }

    /** An int64 field's varint (an enum's number too). */
    void int64(long value) {
        ensure(10);
        byte[] b = bytes;
        int n = length;
        while ((value & ~0x7FL) != 0) {
            b[n++] = (byte) (value & 0x7F | 0x80);
            value >>>= 7;
        }
        b[n++] = (byte) value;
        length = n;
    }

    /**
     * One length-delimited {@code Column} message of {@code size} bytes, its fields in number order: {@code head}
     * (fields 1-4, encoded), updated, isNull, the value unless it is NULL, {@code mysqlType} (field 10, encoded).
     * With {@code value} null but not {@code isNull}, the value's length is written and its bytes are left out
     * (a value the caller shares rather than copies). Written with one bounds check: this is the row worker's
     * innermost loop.
     */
    void column(int fieldNumber, int size, byte[] head, boolean updated, boolean isNull, byte[] value,
            int valueLength, byte[] mysqlType) {
        ensure(1 + MAX_VARINT32_BYTES + size - (value == null ? valueLength : 0));
        byte[] b = bytes;
        int n = length;
        b[n++] = (byte) (fieldNumber << 3 | LENGTH_DELIMITED);
        n = varint(b, n, size);
        System.arraycopy(head, 0, b, n, head.length);
        n += head.length;
        b[n] = (byte) (COLUMN_UPDATED << 3);
        b[n + 1] = (byte) (updated ? 1 : 0);
        b[n + 2] = (byte) (COLUMN_IS_NULL << 3);
        b[n + 3] = (byte) (isNull ? 1 : 0);
        n += 4;
        if (!isNull) {
            b[n++] = (byte) (COLUMN_VALUE << 3 | LENGTH_DELIMITED);
            n = varint(b, n, valueLength);
            if (value != null) {
                System.arraycopy(value, 0, b, n, valueLength);
                n += valueLength;
            }
        }
        System.arraycopy(mysqlType, 0, b, n, mysqlType.length);
        length = n + mysqlType.length;
    }

    /** {@code value} as an unsigned varint at {@code b[n]}; the position after it. */
    private static int varint(byte[] b, int n, int value) {
        while ((value & ~0x7F) != 0) {
            b[n++] = (byte) (value & 0x7F | 0x80);
            value >>>= 7;
        }
        b[n++] = (byte) value;
        return n;
    }

    void append(byte[] source) {
        append(source, 0, source.length);
    }

    void append(byte[] source, int offset, int count) {
        ensure(count);
        System.arraycopy(source, offset, bytes, length, count);
        length += count;
    }

    /** The content, exactly {@link #length()} bytes long: the backing array itself when it is full. */
    byte[] toByteArray() {
        return length == bytes.length ? bytes : Arrays.copyOf(bytes, length);
    }

    private void ensure(int more) {
        if (bytes.length - length < more) {
            int needed = length + more;
            bytes = Arrays.copyOf(bytes, needed + Math.min(needed, MAX_HEADROOM));
        }
    }
}
