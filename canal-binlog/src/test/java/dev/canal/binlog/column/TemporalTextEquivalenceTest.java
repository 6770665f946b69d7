package dev.canal.binlog.column;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * DATE, TIME and DATETIME values decoded to {@link TemporalValue}s and rendered later give exactly the text the
 * decoder made eagerly before (commit 8b42d14), kept below as {@link Eager}: for random stored bytes of every
 * type and precision, out-of-range and corrupt ones included, plus the edges (zero, all ones, around the
 * offsets where negative TIME2 values borrow).
 */
class TemporalTextEquivalenceTest {

    private static final int RANDOM_VALUES = 50_000;
    private static final int[] WIDTH_BY_FSP = {0, 1, 1, 2, 2, 3, 3};

    @Test
    void decodedTemporalValuesRenderAsTheEagerTextDid() {
        long seed = System.nanoTime();
        System.out.println("TemporalTextEquivalenceTest seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        assertSameText(ColumnType.DATE, 0, 3, random);
        assertSameText(ColumnType.TIME, 0, 3, random);
        assertSameText(ColumnType.DATETIME, 0, 8, random);
        for (int fsp = 0; fsp <= 6; fsp++) {
            assertSameText(ColumnType.TIME2, fsp, 3 + WIDTH_BY_FSP[fsp], random);
            assertSameText(ColumnType.DATETIME2, fsp, 5 + WIDTH_BY_FSP[fsp], random);
        }
    }

    @Test
    void jsonTemporalsRenderAsTheEagerTextDid() {
        long seed = System.nanoTime();
        System.out.println("TemporalTextEquivalenceTest seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < RANDOM_VALUES; i++) {
            long packed = i < 64 ? edgeLong(i) : random.nextLong() >> random.nextInt(64);
            assertThat(ColumnDecoder.packedDate(packed)).hasToString(Eager.packedDatetime(packed, 0, true));
            assertThat(ColumnDecoder.packedDatetime(packed, 6)).hasToString(Eager.packedDatetime(packed, 6, false));
            assertThat(ColumnDecoder.packedTime(packed, 6)).hasToString(Eager.packedTime(packed, 6));
        }
    }

    @Test
    void textOfAnyFieldsIsTheEagerText() {
        long seed = System.nanoTime();
        System.out.println("TemporalTextEquivalenceTest seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < RANDOM_VALUES; i++) {
            // out-of-range and negative fields too (corrupt images, JSON opaque values); hours are never negative
            int year = random.nextInt(-1000, 30_000);
            int month = random.nextInt(-150, 150);
            int day = random.nextInt(-150, 150);
            int hour = random.nextInt(-150, 150);
            int minute = random.nextInt(-150, 150);
            int second = random.nextInt(-150, 150);
            int micros = random.nextInt(-(1 << 23), 1 << 24);
            int fsp = random.nextInt(7);
            assertThat(TemporalText.date(year, month, day)).isEqualTo(Eager.date(year, month, day));
            assertThat(TemporalText.datetime(year, month, day, hour, minute, second, micros, fsp))
                    .isEqualTo(Eager.datetime(year, month, day, hour, minute, second, micros, fsp));
            int hours = random.nextInt(1100);
            assertThat(TemporalText.time(i % 2 == 0, hours, minute, second, micros, fsp))
                    .isEqualTo(Eager.time(i % 2 == 0, hours, minute, second, micros, fsp));
        }
    }

    private static void assertSameText(int type, int fsp, int width, SplittableRandom random) {
        for (int i = 0; i < RANDOM_VALUES; i++) {
            byte[] image = new byte[width];
            random.nextBytes(image);
            edge(image, i);
            String expected = Eager.decode(type, fsp, new LittleEndianCursor(image));
            if (expected == null) {
                assertThatThrownBy(() -> ColumnDecoder.decode(type, fsp, new LittleEndianCursor(image)))
                        .isInstanceOf(MalformedDataException.class);
                continue;
            }
            Object value = ColumnDecoder.decode(type, fsp, new LittleEndianCursor(image));
            assertThat(value).as("%s(%d) %s", ColumnType.name(type), fsp, java.util.HexFormat.of().formatHex(image))
                    .isInstanceOf(TemporalValue.class).hasToString(expected);
        }
    }

    /** The first values of a run: all zeros, all ones, and the sign-offset byte (0x80/0x7F) with either fill. */
    private static void edge(byte[] image, int i) {
        if (i >= 8) {
            return;
        }
        java.util.Arrays.fill(image, (i & 1) == 0 ? (byte) 0 : (byte) 0xFF);
        if (i >= 2 && i < 4) {
            image[0] = (byte) 0x80;
        } else if (i >= 4 && i < 6) {
            image[0] = (byte) 0x7F;
        } else if (i >= 6) {
            image[image.length - 1] = (byte) (i == 6 ? 1 : 0xFE);
        }
    }

    private static long edgeLong(int i) {
        return switch (i % 4) {
            case 0 -> 1L << i;
            case 1 -> -(1L << i);
            case 2 -> Long.MAX_VALUE >> i;
            default -> Long.MIN_VALUE >> (i - 3);
        };
    }

    /** The decoder's text as it was made at decode time before (commit 8b42d14): the oracle. */
    private static final class Eager {

        private static final int[] FRACTION_DIVISOR = {1_000_000, 100_000, 10_000, 1000, 100, 10, 1};

        /** The text, or null where the decoder threw. */
        static String decode(int type, int fsp, LittleEndianCursor c) {
            switch (type) {
                case ColumnType.DATE -> {
                    int v = c.uint24();
                    return date(v >> 9, (v >> 5) & 0x0F, v & 0x1F);
                }
                case ColumnType.TIME -> {
                    int v = c.int24();
                    int abs = Math.abs(v);
                    return time(v < 0, abs / 10000, abs / 100 % 100, abs % 100, 0, 0);
                }
                case ColumnType.DATETIME -> {
                    long v = c.int64();
                    if (v < 0) {
                        return null;
                    }
                    long date = v / 1_000_000;
                    long time = v % 1_000_000;
                    return datetime((int) (date / 10000), (int) (date / 100 % 100), (int) (date % 100),
                            (int) (time / 10000), (int) (time / 100 % 100), (int) (time % 100), 0, 0);
                }
                case ColumnType.DATETIME2 -> {
                    long intPart = c.uintBigEndian(5) - 0x8000000000L;
                    int micros = fraction(fsp, c);
                    if (intPart < 0) {
                        return null;
                    }
                    long ymd = intPart >> 17;
                    long ym = ymd >> 5;
                    long hms = intPart & 0x1FFFF;
                    return datetime((int) (ym / 13), (int) (ym % 13), (int) (ymd & 0x1F), (int) (hms >> 12),
                            (int) ((hms >> 6) & 0x3F), (int) (hms & 0x3F), micros, fsp);
                }
                case ColumnType.TIME2 -> {
                    return packedTime(time2(fsp, c), fsp);
                }
                default -> throw new IllegalArgumentException(ColumnType.name(type));
            }
        }

        private static int fraction(int fsp, LittleEndianCursor c) {
            return switch (fsp) {
                case 1, 2 -> (byte) c.uint8() * 10_000;
                case 3, 4 -> (short) c.uintBigEndian(2) * 100;
                case 5, 6 -> (int) c.uintBigEndian(3) << 8 >> 8;
                default -> 0;
            };
        }

        private static long time2(int fsp, LittleEndianCursor c) {
            switch (fsp) {
                case 1, 2 -> {
                    long intPart = c.uintBigEndian(3) - 0x800000L;
                    long frac = c.uint8();
                    if (intPart < 0 && frac != 0) {
                        intPart++;
                        frac -= 0x100;
                    }
                    return (intPart << 24) + frac * 10_000;
                }
                case 3, 4 -> {
                    long intPart = c.uintBigEndian(3) - 0x800000L;
                    long frac = c.uintBigEndian(2);
                    if (intPart < 0 && frac != 0) {
                        intPart++;
                        frac -= 0x10000;
                    }
                    return (intPart << 24) + frac * 100;
                }
                case 5, 6 -> {
                    return c.uintBigEndian(6) - 0x800000000000L;
                }
                default -> {
                    return (c.uintBigEndian(3) - 0x800000L) << 24;
                }
            }
        }

        static String packedTime(long packed, int fsp) {
            boolean negative = packed < 0;
            long abs = Math.abs(packed);
            int micros = (int) (abs & 0xFFFFFF);
            long hms = abs >> 24;
            return time(negative, (hms >> 12) & 0x3FF, (int) ((hms >> 6) & 0x3F), (int) (hms & 0x3F), micros, fsp);
        }

        static String packedDatetime(long packed, int fsp, boolean dateOnly) {
            long abs = Math.abs(packed);
            int micros = (int) (abs & 0xFFFFFF);
            long ymdhms = abs >> 24;
            long ymd = ymdhms >> 17;
            long ym = ymd >> 5;
            long hms = ymdhms & 0x1FFFF;
            int year = (int) (ym / 13);
            int month = (int) (ym % 13);
            int day = (int) (ymd & 0x1F);
            if (dateOnly) {
                return date(year, month, day);
            }
            return datetime(year, month, day, (int) (hms >> 12), (int) ((hms >> 6) & 0x3F), (int) (hms & 0x3F),
                    micros, fsp);
        }

        static String date(int year, int month, int day) {
            char[] out = new char[10];
            writeDate(out, 0, year, month, day);
            return new String(out);
        }

        static String datetime(int year, int month, int day, int hour, int minute, int second, int micros, int fsp) {
            char[] out = new char[19 + (fsp > 0 ? fsp + 1 : 0)];
            writeDate(out, 0, year, month, day);
            out[10] = ' ';
            writeTwo(out, 11, hour);
            out[13] = ':';
            writeTwo(out, 14, minute);
            out[16] = ':';
            writeTwo(out, 17, second);
            writeFraction(out, 19, micros, fsp);
            return new String(out);
        }

        static String time(boolean negative, long hours, int minute, int second, int micros, int fsp) {
            String h = hours < 10 ? "0" + hours : Long.toString(hours);
            int sign = negative ? 1 : 0;
            char[] out = new char[sign + h.length() + 6 + (fsp > 0 ? fsp + 1 : 0)];
            if (negative) {
                out[0] = '-';
            }
            h.getChars(0, h.length(), out, sign);
            int p = sign + h.length();
            out[p] = ':';
            writeTwo(out, p + 1, minute);
            out[p + 3] = ':';
            writeTwo(out, p + 4, second);
            writeFraction(out, p + 6, micros, fsp);
            return new String(out);
        }

        private static void writeDate(char[] out, int p, int year, int month, int day) {
            writeTwo(out, p, year / 100 % 100);
            writeTwo(out, p + 2, year % 100);
            out[p + 4] = '-';
            writeTwo(out, p + 5, month);
            out[p + 7] = '-';
            writeTwo(out, p + 8, day);
        }

        private static void writeFraction(char[] out, int p, int micros, int fsp) {
            if (fsp <= 0) {
                return;
            }
            out[p] = '.';
            int value = micros / FRACTION_DIVISOR[fsp];
            for (int i = fsp; i >= 1; i--) {
                out[p + i] = (char) ('0' + value % 10);
                value /= 10;
            }
        }

        private static void writeTwo(char[] out, int p, int v) {
            out[p] = (char) ('0' + v / 10 % 10);
            out[p + 1] = (char) ('0' + v % 10);
        }
    }
}
