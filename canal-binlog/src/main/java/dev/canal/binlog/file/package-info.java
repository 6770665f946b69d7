/**
 * Local binlog and relay-log files: {@link dev.canal.binlog.file.BinlogFileReader} reads and checks them
 * event by event; {@link dev.canal.binlog.file.BinlogChecksum} verifies an event's CRC32.
 */
package dev.canal.binlog.file;
