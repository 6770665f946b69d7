package dev.canal.binlog.event;

import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;

/**
 * Reads MySQL's compact serialization (8.3+, used by GTID_TAGGED and tags in PREVIOUS_GTIDS): variable-length
 * integers whose first byte's count of trailing one-bits says how many more bytes follow (the value is the
 * little-endian bytes shifted right by that count plus one; 0xFF means eight whole bytes follow), signed
 * values zig-zag encoded, strings as a length and bytes.
 */
final class SerializedFields {

    private SerializedFields() {
    }

    static long readUnsigned(LittleEndianCursor c) {
        int first = c.uint8();
        int extra = Integer.numberOfTrailingZeros(~first);
        if (extra == 8) {
            return c.int64();
        }
        long value = first;
        for (int i = 1; i <= extra; i++) {
            value |= (long) c.uint8() << (8 * i);
        }
        return value >>> (extra + 1);
    }

    static long readSigned(LittleEndianCursor c) {
        long zigzag = readUnsigned(c);
        return (zigzag >>> 1) ^ -(zigzag & 1);
    }

    static String readString(LittleEndianCursor c) {
        long length = readUnsigned(c);
        return c.string(c.checkedLength(length));
    }

    static int readInt(LittleEndianCursor c, String what) {
        long v = readUnsigned(c);
        if (v < 0 || v > Integer.MAX_VALUE) {
            throw new MalformedDataException(what + " " + v + " out of range at offset " + c.offset());
        }
        return (int) v;
    }
}
