package dev.canal.binlog.io;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * Reads MySQL's little-endian encodings straight from a byte array (a binlog event or a protocol packet)
 * without copying. Every read checks the bounds first and throws {@link MalformedDataException} naming
 * the offset, so truncated or corrupt input can never read past its end or allocate absurd arrays.
 *
 * <p>Not thread-safe: one cursor per reader.
 */
public final class LittleEndianCursor {

    /** Length-encoded integer markers of the client/server protocol. */
    private static final int LENENC_NULL = 0xFB;
    private static final int LENENC_2_BYTES = 0xFC;
    private static final int LENENC_3_BYTES = 0xFD;
    private static final int LENENC_8_BYTES = 0xFE;

    private final byte[] buf;
    private final int start;
    private int pos;
    private int limit;

    public LittleEndianCursor(byte[] buf) {
        this(buf, 0, buf.length);
    }

    public LittleEndianCursor(byte[] buf, int offset, int length) {
        if (offset < 0 || length < 0 || offset + length > buf.length) {
            throw new MalformedDataException("bad slice offset " + offset + " length " + length + " of " + buf.length);
        }
        this.buf = buf;
        this.start = offset;
        this.pos = offset;
        this.limit = offset + length;
    }

    public byte[] array() {
        return buf;
    }

    /** Absolute index into {@link #array()}. */
    public int position() {
        return pos;
    }

    /** Offset relative to the start of this cursor's slice. */
    public int offset() {
        return pos - start;
    }

    public void position(int absolute) {
        if (absolute < start || absolute > limit) {
            throw new MalformedDataException("position " + absolute + " outside [" + start + ", " + limit + "]");
        }
        pos = absolute;
    }

    public int limit() {
        return limit;
    }

    /** Shrinks the readable end, e.g. to exclude a trailing checksum. */
    public void limit(int absolute) {
        if (absolute < pos || absolute > buf.length) {
            throw new MalformedDataException("limit " + absolute + " outside [" + pos + ", " + buf.length + "]");
        }
        limit = absolute;
    }

    public int remaining() {
        return limit - pos;
    }

    public boolean hasRemaining() {
        return pos < limit;
    }

    public void skip(int n) {
        require(n);
        pos += n;
    }

    public int int8() {
        require(1);
        return buf[pos++];
    }

    public int uint8() {
        require(1);
        return buf[pos++] & 0xFF;
    }

    public int uint16() {
        require(2);
        int v = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8;
        pos += 2;
        return v;
    }

    public int int16() {
        return (short) uint16();
    }

    public int uint24() {
        require(3);
        int v = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8 | (buf[pos + 2] & 0xFF) << 16;
        pos += 3;
        return v;
    }

    public int int24() {
        return uint24() << 8 >> 8;
    }

    public long uint32() {
        return int32() & 0xFFFFFFFFL;
    }

    public int int32() {
        require(4);
        int v = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8 | (buf[pos + 2] & 0xFF) << 16
                | (buf[pos + 3] & 0xFF) << 24;
        pos += 4;
        return v;
    }

    /** Unsigned little-endian integer of 1 to 8 bytes (an 8-byte value comes back as raw bits). */
    public long uintN(int bytes) {
        if (bytes < 1 || bytes > 8) {
            throw new MalformedDataException("integer width " + bytes + " at offset " + offset());
        }
        require(bytes);
        long v = 0;
        for (int i = 0; i < bytes; i++) {
            v |= (buf[pos + i] & 0xFFL) << (8 * i);
        }
        pos += bytes;
        return v;
    }

    public long uint48() {
        return uintN(6);
    }

    public long int64() {
        return uintN(8);
    }

    /** Big-endian unsigned integer of 1 to 8 bytes, as used by DECIMAL, DATETIME2, TIME2 and TIMESTAMP2. */
    public long uintBigEndian(int bytes) {
        if (bytes < 1 || bytes > 8) {
            throw new MalformedDataException("integer width " + bytes + " at offset " + offset());
        }
        require(bytes);
        long v = 0;
        for (int i = 0; i < bytes; i++) {
            v = v << 8 | (buf[pos + i] & 0xFFL);
        }
        pos += bytes;
        return v;
    }

    public float float32() {
        return Float.intBitsToFloat(int32());
    }

    public double float64() {
        return Double.longBitsToDouble(int64());
    }

    /**
     * Length-encoded integer; returns -1 for the NULL marker (0xFB). Values above Long.MAX_VALUE do not occur
     * in lengths we accept and are rejected by the callers' bounds checks.
     */
    public long lengthEncodedInt() {
        int first = uint8();
        if (first < LENENC_NULL) {
            return first;
        }
        return switch (first) {
            case LENENC_NULL -> -1;
            case LENENC_2_BYTES -> uint16();
            case LENENC_3_BYTES -> uint24();
            case LENENC_8_BYTES -> int64();
            default -> throw new MalformedDataException(
                    "bad length-encoded integer marker 0x" + Integer.toHexString(first) + " at offset " + (offset() - 1));
        };
    }

    /** A length checked against what is left, so a corrupt length fails instead of allocating. */
    public int checkedLength(long length) {
        if (length < 0 || length > remaining()) {
            throw new MalformedDataException("length " + length + " exceeds the " + remaining()
                    + " bytes left at offset " + offset());
        }
        return (int) length;
    }

    public byte[] bytes(int n) {
        require(n);
        byte[] out = new byte[n];
        System.arraycopy(buf, pos, out, 0, n);
        pos += n;
        return out;
    }

    public byte[] remainingBytes() {
        return bytes(remaining());
    }

    public String string(int n, Charset charset) {
        require(n);
        String s = new String(buf, pos, n, charset);
        pos += n;
        return s;
    }

    public String string(int n) {
        return string(n, StandardCharsets.UTF_8);
    }

    /** A string ended by a 0x00 byte (the terminator is consumed). */
    public String nullTerminatedString() {
        int end = pos;
        while (end < limit && buf[end] != 0) {
            end++;
        }
        if (end == limit) {
            throw new MalformedDataException("unterminated string at offset " + offset());
        }
        String s = new String(buf, pos, end - pos, StandardCharsets.UTF_8);
        pos = end + 1;
        return s;
    }

    /** Length-encoded string; null for the NULL marker. */
    public String lengthEncodedString() {
        long length = lengthEncodedInt();
        return length < 0 ? null : string(checkedLength(length));
    }

    public String remainingString() {
        return string(remaining());
    }

    private void require(int n) {
        if (n < 0 || n > limit - pos) {
            throw new MalformedDataException("need " + n + " bytes at offset " + offset() + " but only "
                    + (limit - pos) + " remain");
        }
    }
}
