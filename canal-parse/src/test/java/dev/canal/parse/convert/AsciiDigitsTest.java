package dev.canal.parse.convert;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class AsciiDigitsTest {

    private static final long[] EDGES = {0, 1, -1, 9, 10, -9, -10, 99, 100, Integer.MAX_VALUE, Integer.MIN_VALUE,
        999_999_999_999_999_999L, 1_000_000_000_000_000_000L, -1_000_000_000_000_000_000L, Long.MAX_VALUE,
        Long.MIN_VALUE, Long.MIN_VALUE + 1};

    @Test
    void digitsAreLongToStringForEdgesAndRandomValuesOfEveryLength() {
        long seed = System.nanoTime();
        System.out.println("AsciiDigitsTest seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        for (long edge : EDGES) {
            assertDigits(edge);
        }
        for (int i = 0; i < 100_000; i++) {
            assertDigits(random.nextLong() >> random.nextInt(64)); // every magnitude, both signs
        }
    }

    private static void assertDigits(long value) {
        assertThat(ascii(AsciiDigits.of(value))).as("%d", value).isEqualTo(Long.toString(value));
        assertThat(ascii(AsciiDigits.unsigned(value))).as("unsigned %d", value)
                .isEqualTo(Long.toUnsignedString(value));
    }

    private static String ascii(byte[] text) {
        return new String(text, StandardCharsets.US_ASCII);
    }
}
