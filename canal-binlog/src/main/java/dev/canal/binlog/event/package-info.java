/**
 * Binlog events of MySQL 5.0-9.x and MariaDB 5.5-11.x: one record per event kind under the sealed
 * {@link dev.canal.binlog.event.BinlogEvent}, one small decoder per event type, and the
 * {@link dev.canal.binlog.event.DecoderContext} that decodes a stream in order (it keeps the format
 * description and the table maps).
 *
 * <p>Use: {@code context.decode(bytes, offset, length)} per whole event (checksum verified by whoever read the
 * bytes: {@link dev.canal.binlog.file.BinlogChecksum}); for a {@link dev.canal.binlog.event.RowsEvent}
 * take {@code context.tableMap(event.tableId())} at that point, then, on any thread,
 * {@link dev.canal.binlog.event.RowsDecoder#decode} for the rows. Malformed input raises
 * {@link dev.canal.binlog.io.MalformedDataException}; deliberately unsupported input (encrypted binlogs,
 * pre-v4 formats, pre-GA row images) {@link dev.canal.binlog.event.UnsupportedBinlogException}; event types
 * without a decoder become {@link dev.canal.binlog.event.UnknownEvent} with one warning per type.
 */
package dev.canal.binlog.event;
