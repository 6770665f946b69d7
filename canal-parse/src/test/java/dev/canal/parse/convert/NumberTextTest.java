package dev.canal.parse.convert;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class NumberTextTest {

    private static final String[] DECIMAL_EDGES = {"0", "0.00", "-0.05", "0.5", "-1", "1.000", "12.30",
        "999999999999999999", "-999999999999999999", "0.000000000000000001", "99999999999999999.9",
        "1000000000000000000", "-12345678901234567890.123", "1E+3", "-5E+2", "0E-30", "1E-40",
        "12345678901234567890123456789012345.123456789012345678901234567890"};

    private static final double[] DOUBLE_EDGES = {0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE, Double.MIN_NORMAL, 0.01,
        -0.01, 0.001, 0.0001, 0.1, 0.25, 0.5, 1, -1, 12.25, 100000.25, 9_999_999.99, -9_999_999.99, 1e7, 1e7 - 1,
        1e7 + 0.25, 1e22, 9.99999999999999E8, 1.0E-6, 0.333333333, 1.7976931348623157E308, 123456.79, 2e-3,
        1.0 / 3, Math.PI, 5e-324, 0.07, 0.29, 1.15, 4.35, 8.2, 100.01, 1234567.89};

    @Test
    void decimalTextIsToPlainStringForEdgesAndRandomValuesOfEveryPrecisionAndScale() {
        for (String edge : DECIMAL_EDGES) {
            assertDecimal(new BigDecimal(edge));
        }
        SplittableRandom random = random("decimal");
        for (int i = 0; i < 200_000; i++) {
            int digits = 1 + random.nextInt(30);
            BigInteger unscaled = new BigInteger(digits * 4, new java.util.Random(random.nextLong()));
            if (random.nextBoolean()) {
                unscaled = unscaled.negate();
            }
            assertDecimal(new BigDecimal(unscaled, random.nextInt(-3, 35)));
        }
    }

    @Test
    void doubleTextIsDoubleToStringForEdgesHundredthsAndRandomBitPatterns() {
        for (double edge : DOUBLE_EDGES) {
            assertDouble(edge);
            assertDouble(-edge);
            assertDouble(Math.nextUp(edge));
            assertDouble(Math.nextDown(edge));
        }
        SplittableRandom random = random("double");
        for (int i = 0; i < 300_000; i++) {
            // the fast path's domain (hundredths below 10^7), its neighbours, and doubles of every exponent
            double hundredths = random.nextLong(-1_000_000_000L, 1_000_000_000L) / 100.0;
            assertDouble(hundredths);
            assertDouble(Math.nextUp(hundredths));
            assertDouble(random.nextLong(-100_000_000L, 100_000_000L) / 1000.0);
            assertDouble(Double.longBitsToDouble(random.nextLong()));
        }
    }

    private static SplittableRandom random(String what) {
        long seed = System.nanoTime();
        System.out.println("NumberTextTest " + what + " seed " + seed);
        return new SplittableRandom(seed);
    }

    private static void assertDecimal(BigDecimal value) {
        assertThat(ascii(NumberText.decimal(value))).as("%s", value).isEqualTo(value.toPlainString());
    }

    private static void assertDouble(double value) {
        assertThat(ascii(NumberText.doubleValue(value))).as("%s", value).isEqualTo(Double.toString(value));
    }

    private static String ascii(byte[] text) {
        return new String(text, StandardCharsets.US_ASCII);
    }
}
