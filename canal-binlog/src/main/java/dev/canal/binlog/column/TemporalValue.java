package dev.canal.binlog.column;

/**
 * A DATE, TIME or DATETIME column value as the row image stores it: its fields, not yet text. Decoding only
 * splits the stored integer; {@link #toString()} writes MySQL's text form when (and only if) it is rendered.
 * Fields are kept verbatim, out-of-range ones included, so the text is exactly what {@link TemporalText}
 * makes of them.
 */
public sealed interface TemporalValue permits DateValue, TimeValue, DatetimeValue {

    /** MySQL's text form (see {@link TemporalText}). */
    @Override
    String toString();

    /** The same text as ASCII (hence UTF-8) bytes, in a new array. */
    byte[] textBytes();
}
