/**
 * GTID positions: {@link dev.canal.binlog.gtid.MysqlGtidSet} (MySQL's {@code uuid:1-5} sets, text and binary)
 * and {@link dev.canal.binlog.gtid.MariadbGtidList} (MariaDB's {@code domain-server-sequence} lists).
 */
package dev.canal.binlog.gtid;
