package dev.canal.parse.convert;

import dev.canal.binlog.column.TemporalText;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;

/**
 * TIMESTAMP values as Canal prints them: {@code yyyy-MM-dd HH:mm:ss[.f...]} in a time zone (the JVM's, for the
 * parser), with the digits written by canal-binlog's {@link TemporalText}. A fixed-offset zone (UTC, say: most
 * servers) skips the zone rules lookup of every value.
 */
final class TimestampText {

    private final ZoneRules rules;
    private final ZoneOffset fixedOffset;

    TimestampText(ZoneId zone) {
        this.rules = zone.getRules();
        this.fixedOffset = rules.isFixedOffset() ? rules.getOffset(Instant.EPOCH) : null;
    }

    /**
     * @param micros the fractional part in microseconds
     * @param fsp    the column's fractional-second precision: exactly that many digits are printed
     * @return the text as ASCII bytes
     */
    byte[] timestamp(long epochSeconds, int micros, int fsp) {
        if (epochSeconds == 0 && micros == 0) {
            // MySQL's zero TIMESTAMP
            return TemporalText.datetimeBytes(0, 0, 0, 0, 0, 0, 0, fsp);
        }
        ZoneOffset offset = fixedOffset != null ? fixedOffset : rules.getOffset(Instant.ofEpochSecond(epochSeconds));
        LocalDateTime t = LocalDateTime.ofEpochSecond(epochSeconds, 0, offset);
        return TemporalText.datetimeBytes(t.getYear(), t.getMonthValue(), t.getDayOfMonth(),
                t.getHour(), t.getMinute(), t.getSecond(), micros, fsp);
    }
}
