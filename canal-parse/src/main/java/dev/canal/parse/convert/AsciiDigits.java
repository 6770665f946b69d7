package dev.canal.parse.convert;

import java.nio.charset.StandardCharsets;

/**
 * Decimal text of integers written straight into a new byte array: the UTF-8 form a Column value needs,
 * without the String that {@code Long.toString} would make and the copy that encoding it would take.
 */
final class AsciiDigits {

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

    private static int digitCount(long nonNegative) {
        int count = 1;
        for (long limit = 10; count < 19 && nonNegative >= limit; limit *= 10) {
            count++;
        }
        return count;
    }
}
