package dev.canal.binlog.column;

/** A DATE value; zero and partial dates ({@code 0000-00-00}, {@code 2024-00-00}) keep their zero fields. */
public record DateValue(int year, int month, int day) implements TemporalValue {

    /** {@code YYYY-MM-DD}. */
    @Override
    public String toString() {
        return TemporalText.date(year, month, day);
    }

    @Override
    public byte[] textBytes() {
        return TemporalText.dateBytes(year, month, day);
    }
}
