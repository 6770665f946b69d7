package dev.canal.binlog.column;

/**
 * A TIMESTAMP column value: a point in time, rendered later in a time zone (Canal uses the JVM's). The zero
 * timestamp {@code 0000-00-00 00:00:00} is epoch second 0 with 0 microseconds.
 *
 * @param fsp fractional seconds precision of the column (0-6)
 */
public record TimestampValue(long epochSeconds, int micros, int fsp) {

    public boolean isZero() {
        return epochSeconds == 0 && micros == 0;
    }
}
