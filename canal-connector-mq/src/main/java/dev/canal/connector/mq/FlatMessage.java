package dev.canal.connector.mq;

import java.util.List;
import java.util.Map;

/**
 * Canal's flat message: one ROWDATA entry as plain maps. The nullable components are null
 * exactly where Canal writes JSON null. Maps keep column order and may hold null values, so they are the
 * builder's unmodifiable views rather than {@code Map.copyOf} copies.
 *
 * @param data      rows (after-image, or before-image for DELETE); null for DDL and row-less entries
 * @param mysqlType column type texts; null when there are no rows
 * @param old       UPDATE only: per row, the before values of the updated columns; null otherwise
 * @param pkNames   key columns of the first row; null when it has none
 * @param sqlType   java.sql.Types per column; null when there are no rows
 * @param snapshot  whether the rows come from a snapshot rather than the binlog (docs/snapshots.md); written to
 *                  JSON only when true, so live messages keep Canal's exact form
 */
public record FlatMessage(List<Map<String, String>> data, String database, long es, String gtid, long id,
        boolean isDdl, Map<String, String> mysqlType, List<Map<String, String>> old, List<String> pkNames,
        String sql, Map<String, Integer> sqlType, String table, long ts, String type, boolean snapshot) {

    /** The same message carrying other rows, as a partition's share of it (8.4 "split"). */
    public FlatMessage withRows(List<Map<String, String>> rows, List<Map<String, String>> oldRows) {
        return new FlatMessage(rows, database, es, gtid, id, isDdl, mysqlType, oldRows, pkNames, sql, sqlType,
                table, ts, type, snapshot);
    }
}
