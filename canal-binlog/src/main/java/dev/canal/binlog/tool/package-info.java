/** Command-line tools shipped with the server: {@link dev.canal.binlog.tool.BinlogDump} behind bin/binlog-dump.sh. */
package dev.canal.binlog.tool;
