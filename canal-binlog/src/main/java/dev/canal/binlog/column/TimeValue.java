package dev.canal.binlog.column;

/**
 * A TIME value: a signed duration, hours beyond 99 allowed ({@code -838:59:59}).
 *
 * @param negative whether the text starts with {@code -}; the other fields are magnitudes
 * @param micros   the fraction as stored, in microseconds
 * @param fsp      fractional seconds precision of the column (0-6): the number of fraction digits rendered
 */
public record TimeValue(boolean negative, int hours, int minute, int second, int micros, int fsp)
        implements TemporalValue {

    /** {@code [-]hh:mm:ss[.f...]}. */
    @Override
    public String toString() {
        return TemporalText.time(negative, hours, minute, second, micros, fsp);
    }

    @Override
    public byte[] textBytes() {
        return TemporalText.timeBytes(negative, hours, minute, second, micros, fsp);
    }
}
