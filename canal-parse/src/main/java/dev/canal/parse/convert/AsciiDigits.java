package dev.canal.parse.convert;

import java.nio.charset.StandardCharsets;

/**
 * Decimal text of integers written straight into a new byte array: the UTF-8 form a Column value needs,
 * without the String that {@code Long.toString} would make and the copy that encoding it would take.
 */
final class AsciiDigits {

    /** 10^0 to 10^18. */
    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    private AsciiDigits() {
    }

    /** {@code Long.toString(value)} as ASCII bytes. */
    static byte[] of(long value) {
        if (value == Long.MIN_VALUE) {
            return Long.toString(value).getBytes(StandardCharsets.US_ASCII); // its magnitude has no long
        }
        boolean negative = value < 0;
        long rest = negative ? -value : value;
        int length = digitCount(rest) + (negative ? 1 : 0);
        byte[] out = new byte[length];
        for (int i = length - 1; i >= (negative ? 1 : 0); i--) {
            out[i] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        if (negative) {
            out[0] = '-';
        }
        return out;
    }

    /** {@code Long.toUnsignedString(value)} as ASCII bytes. */
    static byte[] unsigned(long value) {
        return value >= 0 ? of(value) : Long.toUnsignedString(value).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Decimal digits of a non-negative long: about log10 from its bit length (1233 / 4096 is just under log10(2)),
     * corrected by one comparison, instead of a loop over the powers of ten.
     */
    static int digitCount(long nonNegative) {
        long v = nonNegative | 1;
        int estimate = (64 - Long.numberOfLeadingZeros(v)) * 1233 >>> 12;
        return estimate + (v >= POWERS_OF_TEN[estimate] ? 1 : 0);
    }
}
