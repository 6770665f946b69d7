/**
 * The replica side of MySQL's client/server protocol, written for the binlog connection (no JDBC there).
 *
 * <ul>
 *   <li>{@link dev.canal.binlog.net.MysqlConnection#open} connects with {@link
 *       dev.canal.binlog.net.ConnectionOptions} ({@link dev.canal.binlog.net.NetworkOptions} for the
 *       {@code canal.instance.network.*} keys, {@link dev.canal.binlog.net.SslOptions} for
 *       {@code sslMode} and friends), logs in with mysql_native_password, caching_sha2_password or sha256_password,
 *       and runs text queries;</li>
 *   <li>{@link dev.canal.binlog.net.ReplicaSession} runs the replica session set-up,
 *       registers as a replica and starts a dump by file and position, by MySQL GTID set or by MariaDB GTID
 *       list;</li>
 *   <li>{@link dev.canal.binlog.net.BinlogStream} hands out each event as its own byte array, checksum
 *       verified; errors arrive as {@link dev.canal.binlog.net.MysqlServerException} (server said so),
 *       {@link dev.canal.binlog.net.ConnectionLostException} (connection gone) or
 *       {@link dev.canal.binlog.net.BinlogChecksumException} (corrupt event).</li>
 * </ul>
 */
package dev.canal.binlog.net;
