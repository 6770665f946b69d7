package dev.canal.binlog.event;

import dev.canal.binlog.io.MalformedDataException;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * MariaDB's binlog compression ({@code log_bin_compress=ON}): one header byte (0x80 set, algorithm in bits
 * 4-6, 0 = zlib, length-of-length in bits 0-2), the uncompressed length big-endian, then the zlib stream.
 */
final class MariaCompression {

    private static final int COMPRESSED_FLAG = 0x80;
    private static final int ALGORITHM_ZLIB = 0;
    /** zlib cannot expand input more than 1032-fold, so a larger claimed length is corrupt (and not allocated). */
    private static final int ZLIB_MAX_RATIO = 1032;
    private static final int ZLIB_MIN_OVERHEAD = 64;

    private MariaCompression() {
    }

    static byte[] inflate(byte[] buf, int offset, int length, String what) {
        if (length < 1 || (buf[offset] & COMPRESSED_FLAG) == 0) {
            throw new MalformedDataException(what + ": missing compression header");
        }
        int header = buf[offset] & 0xFF;
        int algorithm = (header >> 4) & 0x07;
        int lengthBytes = header & 0x07;
        if (algorithm != ALGORITHM_ZLIB || lengthBytes < 1 || lengthBytes > 4 || 1 + lengthBytes > length) {
            throw new MalformedDataException(what + ": bad compression header 0x" + Integer.toHexString(header));
        }
        long size = 0;
        for (int i = 1; i <= lengthBytes; i++) {
            size = size << 8 | (buf[offset + i] & 0xFF);
        }
        long compressed = length - 1 - lengthBytes;
        if (size > compressed * ZLIB_MAX_RATIO + ZLIB_MIN_OVERHEAD) {
            throw new MalformedDataException(what + ": uncompressed length " + size + " cannot come from "
                    + compressed + " compressed bytes");
        }
        byte[] out = new byte[(int) size];
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(buf, offset + 1 + lengthBytes, length - 1 - lengthBytes);
            int n = 0;
            while (n < out.length && !inflater.finished()) {
                int got = inflater.inflate(out, n, out.length - n);
                if (got == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    break;
                }
                n += got;
            }
            if (n != out.length) {
                throw new MalformedDataException(what + ": inflated to " + n + " bytes, header says " + size);
            }
            return out;
        } catch (DataFormatException e) {
            throw new MalformedDataException(what + ": corrupt zlib data: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
    }
}
