package dev.canal.binlog.column;

import java.nio.charset.StandardCharsets;

/**
 * MySQL's text forms of dates and times, each written digit by digit into one byte array (every character is
 * ASCII, so the array is also the text's UTF-8 form, which is what the entry builder wants) or made a String once: zero and partial dates verbatim ({@code 0000-00-00}, {@code 2024-00-00}),
 * hours beyond 99, exactly {@code fsp} fraction digits. Fields are not range-checked: each two-digit field
 * shows its value's last two digits, the year its last four.
 */
public final class TemporalText {

    private static final int DATE_LENGTH = 10;
    private static final int DATETIME_LENGTH = 19;
    private static final int[] FRACTION_DIVISOR = {1_000_000, 100_000, 10_000, 1000, 100, 10, 1};
    /** The two digits of 0-99: one lookup per field instead of a chain of divisions. */
    private static final byte[] TENS = new byte[100];
    private static final byte[] ONES = new byte[100];

    static {
        for (int v = 0; v < 100; v++) {
            TENS[v] = (byte) ('0' + v / 10);
            ONES[v] = (byte) ('0' + v % 10);
        }
    }

    private TemporalText() {
    }

    /** {@code YYYY-MM-DD}. */
    public static String date(int year, int month, int day) {
        return ascii(dateBytes(year, month, day));
    }

    /** {@link #date}'s text as ASCII bytes. */
    public static byte[] dateBytes(int year, int month, int day) {
        byte[] out = new byte[DATE_LENGTH];
        writeDate(out, year, month, day);
        return out;
    }

    /** {@code YYYY-MM-DD hh:mm:ss[.f...]} with {@code fsp} fraction digits. */
    public static String datetime(int year, int month, int day, int hour, int minute, int second, int micros,
            int fsp) {
        return ascii(datetimeBytes(year, month, day, hour, minute, second, micros, fsp));
    }

    /** {@link #datetime}'s text as ASCII bytes. */
    public static byte[] datetimeBytes(int year, int month, int day, int hour, int minute, int second, int micros,
            int fsp) {
        byte[] out = new byte[DATETIME_LENGTH + fractionLength(fsp)];
        writeDate(out, year, month, day);
        out[DATE_LENGTH] = ' ';
        writeClock(out, DATE_LENGTH + 1, hour, 2, minute, second);
        writeFraction(out, DATETIME_LENGTH, micros, fsp);
        return out;
    }

    /** {@code [-]hh:mm:ss[.f...]}, hours with at least two digits ({@code hours} is not negative). */
    public static String time(boolean negative, int hours, int minute, int second, int micros, int fsp) {
        return ascii(timeBytes(negative, hours, minute, second, micros, fsp));
    }

    /** {@link #time}'s text as ASCII bytes. */
    public static byte[] timeBytes(boolean negative, int hours, int minute, int second, int micros, int fsp) {
        int sign = negative ? 1 : 0;
        int hourDigits = Math.max(2, digitCount(hours));
        byte[] out = new byte[sign + hourDigits + 6 + fractionLength(fsp)];
        if (negative) {
            out[0] = '-';
        }
        writeClock(out, sign, hours, hourDigits, minute, second);
        writeFraction(out, sign + hourDigits + 6, micros, fsp);
        return out;
    }

    private static String ascii(byte[] out) {
        return new String(out, StandardCharsets.ISO_8859_1);
    }

    private static int fractionLength(int fsp) {
        return fsp > 0 ? fsp + 1 : 0;
    }

    private static int digitCount(int v) {
        int count = 1;
        for (int rest = v / 10; rest > 0; rest /= 10) {
            count++;
        }
        return count;
    }

    private static void writeDate(byte[] out, int year, int month, int day) {
        if (year >= 0 && year < 10_000) {
            int century = year / 100;
            writeTwo(out, 0, century);
            writeTwo(out, 2, year - century * 100);
        } else {
            writeDigits(out, 0, year, 4);
        }
        out[4] = '-';
        writeTwo(out, 5, month);
        out[7] = '-';
        writeTwo(out, 8, day);
    }

    /** {@code h...h:mm:ss} at {@code p}, the hour's last {@code hourDigits} digits. */
    private static void writeClock(byte[] out, int p, int hour, int hourDigits, int minute, int second) {
        if (hourDigits == 2) {
            writeTwo(out, p, hour);
        } else {
            writeDigits(out, p, hour, hourDigits);
        }
        int q = p + hourDigits;
        out[q] = ':';
        writeTwo(out, q + 1, minute);
        out[q + 3] = ':';
        writeTwo(out, q + 4, second);
    }

    /** The fraction truncated to {@code fsp} digits; a negative (corrupt) fraction keeps MySQL-unlike digits. */
    private static void writeFraction(byte[] out, int p, int micros, int fsp) {
        if (fsp <= 0) {
            return;
        }
        out[p] = '.';
        writeDigits(out, p + 1, micros / FRACTION_DIVISOR[fsp], fsp);
    }

    /** The last two decimal digits of {@code value} at {@code p}. */
    private static void writeTwo(byte[] out, int p, int value) {
        if (value >= 0 && value < 100) {
            out[p] = TENS[value];
            out[p + 1] = ONES[value];
        } else {
            writeDigits(out, p, value, 2);
        }
    }

    /** The last {@code count} decimal digits of {@code value} at {@code p}, zero-padded. */
    private static void writeDigits(byte[] out, int p, int value, int count) {
        for (int i = p + count - 1; i >= p; i--) {
            out[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
    }
}
