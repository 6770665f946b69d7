package dev.canal.binlog.net;

/**
 * Where the server's binlog ends now, from SHOW MASTER STATUS / SHOW BINARY LOG STATUS.
 *
 * @param gtidSet MySQL's Executed_Gtid_Set or MariaDB's {@code @@gtid_binlog_pos}; empty when GTIDs are off
 */
public record BinlogFilePosition(String file, long position, String gtidSet) {
}
