/**
 * Column values of row images: {@link dev.canal.binlog.column.ColumnDecoder} maps each binlog column type
 * to its decoding. A value is null for SQL NULL (and for a column absent from a MINIMAL/NOBLOB image); otherwise:
 *
 * <table>
 * <caption>Java type of each decoded column value</caption>
 * <tr><th>column type</th><th>value</th></tr>
 * <tr><td>TINYINT, SMALLINT, MEDIUMINT, INT, BIGINT</td><td>{@code Long}, the SIGNED value as stored
 *     (an UNSIGNED column's value is re-based later from the table meta or the TABLE_MAP signedness)</td></tr>
 * <tr><td>FLOAT / DOUBLE</td><td>{@code Float} / {@code Double}</td></tr>
 * <tr><td>DECIMAL (NEWDECIMAL)</td><td>{@code BigDecimal}, exact, with exactly the column's scale</td></tr>
 * <tr><td>BIT(n)</td><td>{@code Long}, the raw bits (BIT(64) all ones is -1)</td></tr>
 * <tr><td>YEAR</td><td>{@code Integer}: 0 for the zero year, else 1901..2155</td></tr>
 * <tr><td>DATE</td><td>{@link dev.canal.binlog.column.DateValue}, whose {@code toString()} is
 *     {@code YYYY-MM-DD}; zero and partial dates verbatim ({@code 0000-00-00}, {@code 2024-00-00})</td></tr>
 * <tr><td>TIME, TIME(fsp)</td><td>{@link dev.canal.binlog.column.TimeValue}, whose {@code toString()} is
 *     {@code [-]hh:mm:ss[.f]} with exactly fsp fraction digits, hours beyond 99 allowed
 *     ({@code -838:59:59})</td></tr>
 * <tr><td>DATETIME, DATETIME(fsp)</td><td>{@link dev.canal.binlog.column.DatetimeValue}, whose
 *     {@code toString()} is {@code YYYY-MM-DD hh:mm:ss[.f]} with exactly fsp fraction digits; zero dates
 *     verbatim. The text is made only where a value is rendered: decoding just splits the stored
 *     integer</td></tr>
 * <tr><td>TIMESTAMP, TIMESTAMP(fsp)</td><td>{@link dev.canal.binlog.column.TimestampValue} (epoch seconds,
 *     microseconds, fsp), rendered later in a time zone; the zero timestamp is epoch 0</td></tr>
 * <tr><td>CHAR, VARCHAR, BINARY, VARBINARY, TEXT, BLOB (all sizes), GEOMETRY, VECTOR</td><td>{@code byte[]}
 *     as stored (charset decoding later, with the column charset; BINARY(n) arrives without its trailing
 *     0x00 padding; GEOMETRY is a 4-byte SRID plus WKB)</td></tr>
 * <tr><td>ENUM</td><td>{@code Integer}, the 1-based member index (0 for the invalid value '')</td></tr>
 * <tr><td>SET</td><td>{@code Long}, the member bitmask</td></tr>
 * <tr><td>JSON (MySQL binary JSON)</td><td>{@code String}, MySQL's JSON text form
 *     ({@link dev.canal.binlog.column.JsonBinary})</td></tr>
 * <tr><td>JSON in a PARTIAL_UPDATE_ROWS after image</td><td>{@link dev.canal.binlog.column.PartialJson}
 *     (the diffs to apply to the before image)</td></tr>
 * <tr><td>MariaDB JSON (a LONGTEXT), INET4, INET6, UUID</td><td>{@code byte[]}, as their binlog types (BLOB,
 *     STRING) say</td></tr>
 * <tr><td>MariaDB VARCHAR/BLOB COMPRESSED</td><td>{@code byte[]}, inflated</td></tr>
 * </table>
 */
package dev.canal.binlog.column;
