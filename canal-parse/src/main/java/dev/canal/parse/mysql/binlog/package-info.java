/**
 * Local binlog and relay-log files: {@link dev.canal.parse.mysql.binlog.BinlogFileReader} reads and checks them
 * event by event; {@link dev.canal.parse.mysql.binlog.BinlogChecksum} verifies an event's CRC32.
 */
package dev.canal.parse.mysql.binlog;
