/** Command-line tools shipped with the server: {@link dev.canal.parse.tool.BinlogDump} behind bin/binlog-dump.sh. */
package dev.canal.parse.tool;
