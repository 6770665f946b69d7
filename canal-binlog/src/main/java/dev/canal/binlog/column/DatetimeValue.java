package dev.canal.binlog.column;

/**
 * A DATETIME value; zero dates keep their zero fields.
 *
 * @param micros the fraction as stored, in microseconds
 * @param fsp    fractional seconds precision of the column (0-6): the number of fraction digits rendered
 */
public record DatetimeValue(int year, int month, int day, int hour, int minute, int second, int micros, int fsp)
        implements TemporalValue {

    /** {@code YYYY-MM-DD hh:mm:ss[.f...]} with {@code fsp} fraction digits. */
    @Override
    public String toString() {
        return TemporalText.datetime(year, month, day, hour, minute, second, micros, fsp);
    }

    @Override
    public byte[] textBytes() {
        return TemporalText.datetimeBytes(year, month, day, hour, minute, second, micros, fsp);
    }
}
