package dev.canal.parse.convert;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class Latin1TextTest {

    @Test
    void utf8IsTheJdksEncodingOfTheIso88591TextForEveryByteValue() {
        byte[] everyByte = new byte[256];
        for (int i = 0; i < everyByte.length; i++) {
            everyByte[i] = (byte) i;
        }
        assertSameAsJdk(everyByte);

        long seed = System.nanoTime();
        System.out.println("Latin1TextTest seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 2_000; i++) {
            byte[] value = new byte[random.nextInt(300)];
            random.nextBytes(value);
            assertSameAsJdk(value);
        }
    }

    @Test
    void asciiValuesAreTheirOwnText() {
        byte[] ascii = "plain, 0-9 \u0000 text".getBytes(StandardCharsets.US_ASCII);
        assertThat(Latin1Text.utf8(ascii)).isSameAs(ascii);
    }

    private static void assertSameAsJdk(byte[] value) {
        byte[] expected = new String(value, StandardCharsets.ISO_8859_1).getBytes(StandardCharsets.UTF_8);
        assertThat(Latin1Text.utf8(value)).isEqualTo(expected);
    }
}
