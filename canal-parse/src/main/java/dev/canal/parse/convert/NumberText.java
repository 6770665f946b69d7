package dev.canal.parse.convert;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/**
 * DECIMAL and DOUBLE values as the ASCII bytes of their Java text ({@code BigDecimal.toPlainString},
 * {@code Double.toString}, see docs/compatibility.md), written straight into the value's array for the common
 * cases rather than through a String, a StringBuilder and the encoding of the String.
 *
 * <p>The DOUBLE fast path covers values that are the nearest double to a number of hundredths below 10^7 in
 * magnitude (integers, halves, quarters, prices, percentages): there Java 17's {@code Double.toString} prints the
 * shortest decimal that reads back as the value, in plain notation, which is the hundredths with their trailing
 * zeros dropped (at least one fraction digit). Every such value was compared with {@code Double.toString} once;
 * {@code NumberTextTest} keeps comparing a sample. Any other double goes through {@code Double.toString}, whose
 * digits on Java 17 differ from a shortest-digits algorithm's in some cases.
 */
final class NumberText {

    /** DECIMALs of at most this many digits have an unscaled value that fits a long. */
    private static final int MAX_LONG_DIGITS = 18;
    /** Below this magnitude Double.toString uses plain notation (from 10^-3, which every hundredth but 0 is). */
    private static final double PLAIN_LIMIT = 1e7;
    private static final int HUNDREDTHS = 100;

    private NumberText() {
    }

    /** {@code value.toPlainString()} as ASCII bytes. */
    static byte[] decimal(BigDecimal value) {
        int scale = value.scale();
        if (scale < 0 || value.precision() > MAX_LONG_DIGITS) {
            return value.toPlainString().getBytes(StandardCharsets.US_ASCII);
        }
        // the unscaled value as a long without the BigInteger that unscaledValue() makes
        return scaled(value.scaleByPowerOfTen(scale).longValue(), scale, false);
    }

    /** {@code Double.toString(value)} as ASCII bytes. */
    static byte[] doubleValue(double value) {
        // NaN fails the comparison; zero keeps its sign through Double.toString
        if (value != 0 && Math.abs(value) < PLAIN_LIMIT) {
            long hundredths = Math.round(value * HUNDREDTHS);
            if (hundredths / (double) HUNDREDTHS == value) {
                return scaled(hundredths, 2, true);
            }
        }
        return Double.toString(value).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The plain text of {@code unscaled * 10^-scale} ({@code |unscaled| < 10^18}): the integer digits ("0" when
     * there are none), then {@code scale} fraction digits; with {@code trimmed}, trailing fraction zeros dropped
     * down to one digit, as Double.toString writes them.
     */
    private static byte[] scaled(long unscaled, int scale, boolean trimmed) {
        boolean negative = unscaled < 0;
        long magnitude = negative ? -unscaled : unscaled;
        int fractionDigits = scale;
        while (trimmed && fractionDigits > 1 && magnitude % 10 == 0) {
            magnitude /= 10;
            fractionDigits--;
        }
        return withPoint(negative, magnitude, fractionDigits);
    }

    /** {@code magnitude * 10^-fractionDigits} with its sign, "0" before the point when below one. */
    private static byte[] withPoint(boolean negative, long magnitude, int fractionDigits) {
        int digits = AsciiDigits.digitCount(magnitude);
        int integerDigits = Math.max(1, digits - fractionDigits);
        int length = (negative ? 1 : 0) + integerDigits + (fractionDigits > 0 ? 1 + fractionDigits : 0);
        byte[] out = new byte[length];
        int p = length;
        long rest = magnitude;
        for (int i = 0; i < fractionDigits; i++) {
            out[--p] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        if (fractionDigits > 0) {
            out[--p] = '.';
        }
        for (int i = 0; i < integerDigits; i++) {
            out[--p] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        if (negative) {
            out[0] = '-';
        }
        return out;
    }
}
