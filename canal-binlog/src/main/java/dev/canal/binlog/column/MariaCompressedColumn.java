package dev.canal.binlog.column;

import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * MariaDB columns with the COMPRESSED attribute: the stored value starts with a header byte; 0 means the rest
 * is stored as is; else 0x80 is set, bits 0-2 give the width of the big-endian original length, bit 3 says the
 * deflate stream is raw ({@code column_compression_zlib_wrap=OFF}, the default) rather than zlib-wrapped.
 */
final class MariaCompressedColumn {

    private static final int COMPRESSED = 0x80;
    private static final int RAW_DEFLATE = 0x08;
    private static final int ZLIB_MAX_RATIO = 1032;
    private static final int ZLIB_MIN_OVERHEAD = 64;

    private MariaCompressedColumn() {
    }

    static byte[] inflate(LittleEndianCursor c, int length) {
        if (length == 0) {
            return new byte[0];
        }
        int end = c.position() + c.checkedLength(length);
        int header = c.uint8();
        if (header == 0) {
            return c.bytes(end - c.position());
        }
        int lengthBytes = header & 0x07;
        if ((header & COMPRESSED) == 0 || lengthBytes < 1 || lengthBytes > 4) {
            throw new MalformedDataException("compressed column header 0x" + Integer.toHexString(header)
                    + " at offset " + c.offset());
        }
        long size = c.uintBigEndian(lengthBytes);
        int compressed = end - c.position();
        if (compressed < 0 || size > (long) compressed * ZLIB_MAX_RATIO + ZLIB_MIN_OVERHEAD) {
            throw new MalformedDataException("compressed column claims " + size + " bytes from " + compressed);
        }
        byte[] out = new byte[(int) size];
        Inflater inflater = new Inflater((header & RAW_DEFLATE) != 0);
        try {
            inflater.setInput(c.array(), c.position(), compressed);
            int n = 0;
            while (n < out.length) {
                int got = inflater.inflate(out, n, out.length - n);
                if (got == 0 && (inflater.finished() || inflater.needsInput() || inflater.needsDictionary())) {
                    break;
                }
                n += got;
            }
            if (n != out.length) {
                throw new MalformedDataException("compressed column inflated to " + n + " of " + size + " bytes");
            }
        } catch (DataFormatException e) {
            throw new MalformedDataException("corrupt compressed column: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
        c.position(end);
        return out;
    }
}
