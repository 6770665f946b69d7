package dev.canal.binlog.column;

import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;
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
        int start = c.position();
        c.skip(binarySize(precision, scale));
        Groups groups = new Groups(c.array(), start);
        int intDigits = precision - scale;
        int leadDigits = intDigits % DIGITS_PER_GROUP;
        // the integer part's and the fraction's whole groups lie next to each other
        int wholeGroups = intDigits / DIGITS_PER_GROUP + scale / DIGITS_PER_GROUP;
        int tailDigits = scale % DIGITS_PER_GROUP;
        if (precision <= MAX_LONG_DIGITS) {
            long unscaled = groups.next(BYTES_FOR_DIGITS[leadDigits]);
            for (int i = 0; i < wholeGroups; i++) {
                unscaled = unscaled * 1_000_000_000L + groups.next(GROUP_BYTES);
            }
            if (tailDigits > 0) {
                unscaled = unscaled * POW10[tailDigits] + groups.next(BYTES_FOR_DIGITS[tailDigits]);
            }
            return BigDecimal.valueOf(groups.positive ? unscaled : -unscaled, scale);
        }
        StringBuilder digits = new StringBuilder(precision + 1);
        if (!groups.positive) {
            digits.append('-');
        }
        digits.append(groups.next(BYTES_FOR_DIGITS[leadDigits]));
        for (int i = 0; i < wholeGroups; i++) {
            appendPadded(digits, groups.next(GROUP_BYTES), DIGITS_PER_GROUP);
        }
        if (tailDigits > 0) {
            appendPadded(digits, groups.next(BYTES_FOR_DIGITS[tailDigits]), tailDigits);
        }
        return new BigDecimal(new BigInteger(digits.toString()), scale);
    }

    /**
     * Reads the digit groups in order: a negative number's bytes inverted, and the sign bit (the top bit of the
     * value's first byte, whichever group that byte belongs to) cleared.
     */
    private static final class Groups {

        private final byte[] buf;
        private final int first;
        private final int mask;
        private final boolean positive;
        private int pos;

        Groups(byte[] buf, int start) {
            this.buf = buf;
            this.first = start;
            this.pos = start;
            this.positive = (buf[start] & 0x80) != 0;
            this.mask = positive ? 0 : 0xFF;
        }

        int next(int bytes) {
            int v = 0;
            for (int end = pos + bytes; pos < end; pos++) {
                int b = (buf[pos] ^ mask) & 0xFF;
                v = v << 8 | (pos == first ? b ^ 0x80 : b);
            }
            if (bytes == GROUP_BYTES && (v < 0 || v >= 1_000_000_000)) {
                throw new MalformedDataException("DECIMAL digit group " + Integer.toUnsignedString(v)
                        + " exceeds nine digits");
            }
            return v;
        }
    }

    private static void appendPadded(StringBuilder sb, int value, int width) {
        String s = Integer.toString(value);
        for (int i = s.length(); i < width; i++) {
            sb.append('0');
        }
        sb.append(s);
    }
}
