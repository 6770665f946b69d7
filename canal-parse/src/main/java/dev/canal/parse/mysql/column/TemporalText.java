package dev.canal.parse.mysql.column;

/**
 * MySQL's text forms of dates and times, built into a char array without formatting machinery: zero and
 * partial dates verbatim ({@code 0000-00-00}, {@code 2024-00-00}), hours beyond 99, exactly {@code fsp}
 * fraction digits.
 */
public final class TemporalText {

    private static final int[] FRACTION_DIVISOR = {1_000_000, 100_000, 10_000, 1000, 100, 10, 1};

    private TemporalText() {
    }

    /** {@code YYYY-MM-DD}. */
    public static String date(int year, int month, int day) {
        char[] out = new char[10];
        writeDate(out, 0, year, month, day);
        return new String(out);
    }

    /** {@code YYYY-MM-DD hh:mm:ss[.f...]} with {@code fsp} fraction digits. */
    public static String datetime(int year, int month, int day, int hour, int minute, int second, int micros,
            int fsp) {
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

    /** {@code [-]hh:mm:ss[.f...]}, hours with at least two digits. */
    public static String time(boolean negative, long hours, int minute, int second, int micros, int fsp) {
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
