package dev.canal.parse.convert;

import java.util.Arrays;

/**
 * A growable byte array with the few protobuf encodings {@link RowChangeWriter} needs: single-byte tags, varints
 * and raw bytes. Writing here instead of through a {@code CodedOutputStream} of a pre-computed size lets each
 * column be encoded once, as soon as it is rendered.
 */
final class ProtoBytes {

    /** The ten-byte varints of -1 to -16 (java.sql.Types has several small negative codes), encoded once. */
    private static final byte[][] SMALL_NEGATIVE_INT32 = new byte[16][];

    static {
        for (int i = 0; i < SMALL_NEGATIVE_INT32.length; i++) {
            ProtoBytes encoded = new ProtoBytes(10);
            encoded.int64(-(i + 1));
            SMALL_NEGATIVE_INT32[i] = encoded.toByteArray();
        }
    }

    /**
     * Growing doubles the needed size while it is small and adds at most this much once it is large: a 16 MiB
     * blob's column followed by a few bytes must not make a 32 MiB array (docs/reliability.md, scenario 9).
     */
    private static final int MAX_HEADROOM = 4 << 20;

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

    /**
     * An unsigned varint (lengths, non-negative ints, bools). Most are one byte (column indexes, flags, short
     * values' lengths): that case writes once; the loop keeps the array and the length in locals, as a field
     * written per byte was one of the row worker's hottest frames.
     */
    void uint32(int value) {
        ensure(5);
        byte[] b = bytes;
        int n = length;
        if ((value & ~0x7F) == 0) {
            b[n] = (byte) value;
            length = n + 1;
            return;
        }
        do {
            b[n++] = (byte) (value & 0x7F | 0x80);
            value >>>= 7;
        } while ((value & ~0x7F) != 0);
        b[n++] = (byte) value;
        length = n;
    }

    /** A one-byte tag followed by a one-byte varint (0 or 1: the bool fields). */
    void tagAndBool(int fieldNumber, boolean value) {
        ensure(2);
        byte[] b = bytes;
        int n = length;
        b[n] = (byte) (fieldNumber << 3);
        b[n + 1] = (byte) (value ? 1 : 0);
        length = n + 2;
    }

    /** An int32 field's varint (see {@link #int64}). */
    void int32(int value) {
        if (value >= 0) {
            uint32(value);
        } else if (value >= -SMALL_NEGATIVE_INT32.length) {
            append(SMALL_NEGATIVE_INT32[-value - 1]);
        } else {
            int64(value);
        }
    }

    /** An int64 or int32 field's varint: a negative int32 is sign-extended to ten bytes, as protobuf does. */
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
