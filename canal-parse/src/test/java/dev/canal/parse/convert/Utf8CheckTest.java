package dev.canal.parse.convert;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.UnsafeByteOperations;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class Utf8CheckTest {

    @Test
    void agreesWithTheFullCheckOnAsciiMultiByteAndInvalidBytesAtEveryPosition() {
        byte[][] inserts = {"é".getBytes(StandardCharsets.UTF_8), "€".getBytes(StandardCharsets.UTF_8),
            "😀".getBytes(StandardCharsets.UTF_8), {(byte) 0xFF}, {(byte) 0xC3}, {(byte) 0x80},
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xE2, (byte) 0x82}};
        for (int length = 0; length <= 40; length++) {
            byte[] ascii = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH".substring(0, length)
                    .getBytes(StandardCharsets.US_ASCII);
            assertAgrees(ascii);
            for (byte[] insert : inserts) {
                for (int at = 0; at <= length; at++) {
                    byte[] text = new byte[length + insert.length];
                    System.arraycopy(ascii, 0, text, 0, at);
                    System.arraycopy(insert, 0, text, at, insert.length);
                    System.arraycopy(ascii, at, text, at + insert.length, length - at);
                    assertAgrees(text);
                }
            }
        }
        long seed = System.nanoTime();
        System.out.println("Utf8CheckTest seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 50_000; i++) {
            byte[] text = new byte[random.nextInt(64)];
            for (int j = 0; j < text.length; j++) {
                text[j] = (byte) (random.nextInt(20) == 0 ? random.nextInt(256) : random.nextInt(128));
            }
            assertAgrees(text);
        }
    }

    private static void assertAgrees(byte[] text) {
        assertThat(Utf8Check.isValid(text)).as("%s", java.util.Arrays.toString(text))
                .isEqualTo(UnsafeByteOperations.unsafeWrap(text).isValidUtf8());
    }
}
