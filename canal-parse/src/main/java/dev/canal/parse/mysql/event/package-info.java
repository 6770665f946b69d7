/**
 * Binlog events of MySQL 5.0-9.x and MariaDB 5.5-11.x: one record per event kind under the sealed
 * {@link dev.canal.parse.mysql.event.BinlogEvent}, one small decoder per event type, and the
 * {@link dev.canal.parse.mysql.event.DecoderContext} that decodes a stream in order (it keeps the format
 * description and the table maps).
 *
 * <p>Use: {@code context.decode(bytes, offset, length)} per whole event (checksum verified by whoever read the
 * bytes: {@link dev.canal.parse.mysql.binlog.BinlogChecksum}); for a {@link dev.canal.parse.mysql.event.RowsEvent}
 * take {@code context.tableMap(event.tableId())} at that point, then, on any thread,
 * {@link dev.canal.parse.mysql.event.RowsDecoder#decode} for the rows. Malformed input raises
 * {@link dev.canal.parse.mysql.io.MalformedDataException}; deliberately unsupported input (encrypted binlogs,
 * pre-v4 formats, pre-GA row images) {@link dev.canal.parse.mysql.event.UnsupportedBinlogException}; event types
 * without a decoder become {@link dev.canal.parse.mysql.event.UnknownEvent} with one warning per type.
 */
package dev.canal.parse.mysql.event;
