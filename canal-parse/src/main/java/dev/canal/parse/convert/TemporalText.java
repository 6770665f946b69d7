package dev.canal.parse.convert;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** TIMESTAMP values as Canal prints them: {@code yyyy-MM-dd HH:mm:ss[.f...]} in the JVM's time zone. */
final class TemporalText {

    private static final String ZERO = "0000-00-00 00:00:00";
    private static final String ZERO_FRACTION = ".000000";

    private TemporalText() {
    }

    /**
     * @param micros the fractional part in microseconds
     * @param fsp    the column's fractional-second precision: exactly that many digits are printed
     */
    static String timestamp(long epochSeconds, int micros, int fsp, ZoneId zone) {
        if (epochSeconds == 0 && micros == 0) {
            return fsp == 0 ? ZERO : ZERO + ZERO_FRACTION.substring(0, fsp + 1);
        }
        ZoneOffset offset = zone.getRules().getOffset(Instant.ofEpochSecond(epochSeconds));
        LocalDateTime t = LocalDateTime.ofEpochSecond(epochSeconds, 0, offset);
        StringBuilder sb = new StringBuilder(26);
        pad(sb, t.getYear(), 4).append('-');
        pad(sb, t.getMonthValue(), 2).append('-');
        pad(sb, t.getDayOfMonth(), 2).append(' ');
        pad(sb, t.getHour(), 2).append(':');
        pad(sb, t.getMinute(), 2).append(':');
        pad(sb, t.getSecond(), 2);
        if (fsp > 0) {
            sb.append('.');
            StringBuilder fraction = new StringBuilder(6);
            pad(fraction, micros, 6);
            sb.append(fraction, 0, fsp);
        }
        return sb.toString();
    }

    private static StringBuilder pad(StringBuilder sb, int value, int width) {
        String digits = Integer.toString(value);
        for (int i = digits.length(); i < width; i++) {
            sb.append('0');
        }
        return sb.append(digits);
    }
}
