package dev.canal.reliability;

/**
 * One inserted row as a client received it: its table and id, where in the binlog it was, the client session
 * (connection) that received it, counted from 0, and when ({@link System#nanoTime()}).
 */
record ReceivedRow(String table, int id, BinlogPoint position, int session, long receivedAtNanos) {
}
