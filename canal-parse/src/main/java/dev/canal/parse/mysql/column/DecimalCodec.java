package dev.canal.parse.mysql.column;

import dev.canal.parse.mysql.io.LittleEndianCursor;
import dev.canal.parse.mysql.io.MalformedDataException;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * MySQL's binary DECIMAL (NEWDECIMAL): digits in big-endian groups of nine per 4 bytes, a shorter group for the
 * leftover integer digits first and for the leftover fraction digits last; the sign in the top bit of the first
 * byte (set = positive) and negative numbers stored with every byte inverted.
 */
public final class DecimalCodec {

    private static final int DIGITS_PER_GROUP = 9;
    private static final int GROUP_BYTES = 4;
    private static final int[] BYTES_FOR_DIGITS = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};
    private static final int[] POW10 = {1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000,
        1_000_000_000};
    private static final int MAX_PRECISION = 65;
    private static final int MAX_LONG_DIGITS = 18;

    private DecimalCodec() {
    }

    /** Bytes a DECIMAL(precision, scale) value takes. */
    public static int binarySize(int precision, int scale) {
        int intDigits = precision - scale;
        return intDigits / DIGITS_PER_GROUP * GROUP_BYTES + BYTES_FOR_DIGITS[intDigits % DIGITS_PER_GROUP]
                + scale / DIGITS_PER_GROUP * GROUP_BYTES + BYTES_FOR_DIGITS[scale % DIGITS_PER_GROUP];
    }

    /** Reads one DECIMAL(precision, scale) value; the result has exactly {@code scale} fraction digits. */
    public static BigDecimal read(LittleEndianCursor c, int precision, int scale) {
        if (precision < 1 || precision > MAX_PRECISION || scale < 0 || scale > precision) {
            throw new MalformedDataException("bad DECIMAL(" + precision + "," + scale + ") at offset " + c.offset());
        }
        int size = binarySize(precision, scale);
        int start = c.position();
        c.skip(size);
        byte[] buf = c.array();
        boolean positive = (buf[start] & 0x80) != 0;
        int mask = positive ? 0 : 0xFF;
        int intDigits = precision - scale;
        int pos = start;
        // The sign bit is part of the first group's bytes: flip it while reading that group.
        int[] group = {0};
        pos = readGroup(buf, pos, BYTES_FOR_DIGITS[intDigits % DIGITS_PER_GROUP], mask, true, group);
        boolean firstRead = BYTES_FOR_DIGITS[intDigits % DIGITS_PER_GROUP] > 0;
        int totalDigits = precision;
        if (totalDigits <= MAX_LONG_DIGITS) {
            long unscaled = group[0];
            for (int i = 0; i < intDigits / DIGITS_PER_GROUP; i++) {
                pos = readGroup(buf, pos, GROUP_BYTES, mask, !firstRead, group);
                firstRead = true;
                unscaled = unscaled * 1_000_000_000L + group[0];
            }
            for (int i = 0; i < scale / DIGITS_PER_GROUP; i++) {
                pos = readGroup(buf, pos, GROUP_BYTES, mask, !firstRead, group);
                firstRead = true;
                unscaled = unscaled * 1_000_000_000L + group[0];
            }
            int tail = scale % DIGITS_PER_GROUP;
            if (tail > 0) {
                readGroup(buf, pos, BYTES_FOR_DIGITS[tail], mask, !firstRead, group);
                unscaled = unscaled * POW10[tail] + group[0];
            }
            return BigDecimal.valueOf(positive ? unscaled : -unscaled, scale);
        }
        StringBuilder digits = new StringBuilder(totalDigits + 1);
        if (!positive) {
            digits.append('-');
        }
        digits.append(group[0]);
        for (int i = 0; i < intDigits / DIGITS_PER_GROUP; i++) {
            pos = readGroup(buf, pos, GROUP_BYTES, mask, !firstRead, group);
            firstRead = true;
            appendPadded(digits, group[0], DIGITS_PER_GROUP);
        }
        for (int i = 0; i < scale / DIGITS_PER_GROUP; i++) {
            pos = readGroup(buf, pos, GROUP_BYTES, mask, !firstRead, group);
            firstRead = true;
            appendPadded(digits, group[0], DIGITS_PER_GROUP);
        }
        int tail = scale % DIGITS_PER_GROUP;
        if (tail > 0) {
            readGroup(buf, pos, BYTES_FOR_DIGITS[tail], mask, !firstRead, group);
            appendPadded(digits, group[0], tail);
        }
        return new BigDecimal(new BigInteger(digits.toString()), scale);
    }

    private static int readGroup(byte[] buf, int pos, int bytes, int mask, boolean flipSign, int[] out) {
        int v = 0;
        for (int i = 0; i < bytes; i++) {
            int b = (buf[pos + i] ^ mask) & 0xFF;
            if (i == 0 && flipSign) {
                b ^= 0x80;
            }
            v = v << 8 | b;
        }
        if (bytes == GROUP_BYTES && (v < 0 || v >= 1_000_000_000)) {
            throw new MalformedDataException("DECIMAL digit group " + Integer.toUnsignedString(v) + " exceeds nine digits");
        }
        out[0] = v;
        return pos + bytes;
    }

    private static void appendPadded(StringBuilder sb, int value, int width) {
        String s = Integer.toString(value);
        for (int i = s.length(); i < width; i++) {
            sb.append('0');
        }
        sb.append(s);
    }
}
