package dev.canal.binlog.column;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.binlog.io.LittleEndianCursor;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Random DECIMAL(p,s) values of every precision and scale, written as MySQL's decimal2bin does, read back. */
class DecimalCodecTest {

    private static final int[] BYTES_FOR_DIGITS = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};

    @Test
    void everyPrecisionAndScaleReadsBackExactly() {
        long seed = System.nanoTime();
        System.out.println("DecimalCodecTest seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        for (int precision = 1; precision <= 65; precision++) {
            for (int scale = 0; scale <= Math.min(30, precision); scale++) {
                for (int i = 0; i < 40; i++) {
                    StringBuilder digits = new StringBuilder();
                    for (int d = 0; d < precision; d++) {
                        // every fourth value all nines or all zeros: the group bounds
                        digits.append(i % 4 == 0 ? (i % 8 == 0 ? '9' : '0') : (char) ('0' + random.nextInt(10)));
                    }
                    BigDecimal expected = new BigDecimal((random.nextBoolean() ? "-" : "") + digits.substring(0,
                            precision - scale) + (scale > 0 ? "." + digits.substring(precision - scale) : ""));
                    byte[] image = encode(digits.toString(), expected.signum() < 0, precision, scale);
                    assertThat(image).hasSize(DecimalCodec.binarySize(precision, scale));
                    LittleEndianCursor c = new LittleEndianCursor(image);
                    assertThat(DecimalCodec.read(c, precision, scale)).as("DECIMAL(%d,%d)", precision, scale)
                            .isEqualTo(expected);
                    assertThat(c.hasRemaining()).isFalse();
                }
            }
        }
    }

    /** decimal2bin: leading short group, whole groups of nine digits in 4 bytes, trailing short group. */
    private static byte[] encode(String digits, boolean negative, int precision, int scale) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int intDigits = precision - scale;
        int lead = intDigits % 9;
        group(out, digits.substring(0, lead), BYTES_FOR_DIGITS[lead]);
        for (int p = lead; p < precision - scale % 9; p += 9) {
            group(out, digits.substring(p, p + 9), 4);
        }
        group(out, digits.substring(precision - scale % 9), BYTES_FOR_DIGITS[scale % 9]);
        byte[] bytes = out.toByteArray();
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] ^= negative ? (byte) 0xFF : 0;
        }
        bytes[0] ^= (byte) 0x80;
        return bytes;
    }

    private static void group(ByteArrayOutputStream out, String digits, int bytes) {
        int v = digits.isEmpty() ? 0 : Integer.parseInt(digits);
        for (int b = bytes - 1; b >= 0; b--) {
            out.write(v >>> (8 * b));
        }
    }
}
