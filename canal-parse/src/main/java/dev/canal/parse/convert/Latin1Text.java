package dev.canal.parse.convert;

/**
 * Binary values as Canal shows them: each byte is the ISO-8859-1 character of that code, sent as UTF-8 (one byte
 * below 0x80, two from 0x80 on). Written straight from the value's bytes, without the String in between and the
 * worst-case array its encoding allocates, which for a 16 MiB blob were 16 and 32 MiB of garbage.
 */
final class Latin1Text {

    private Latin1Text() {
    }

    /**
     * The UTF-8 bytes of {@code latin1} read as ISO-8859-1: the array itself when it is all ASCII (the same text),
     * else a new one of exactly the encoded length.
     */
    static byte[] utf8(byte[] latin1) {
        int high = 0;
        for (byte b : latin1) {
            if (b < 0) {
                high++;
            }
        }
        if (high == 0) {
            return latin1;
        }
        byte[] out = new byte[latin1.length + high];
        int p = 0;
        for (byte b : latin1) {
            if (b >= 0) {
                out[p++] = b;
            } else {
                int c = b & 0xFF;
                out[p++] = (byte) (0xC0 | c >>> 6);
                out[p++] = (byte) (0x80 | c & 0x3F);
            }
        }
        return out;
    }
}
