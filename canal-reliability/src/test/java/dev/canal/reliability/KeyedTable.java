package dev.canal.reliability;

import dev.canal.testsupport.MySqlServer;
import java.time.Duration;
import java.util.Map;

/**
 * The table the snapshot scenarios copy, {@code schema.t (id INT PRIMARY KEY, v VARCHAR(40), n INT)}, with a
 * {@code marker} table beside it whose row tells that a consumer caught up with every change before it.
 */
record KeyedTable(MySqlServer db, String schema) {

    /** Creates both tables, {@code t} with ids 1 to {@code rows}; returns the binlog position after them. */
    MySqlServer.BinlogCoordinates fill(int rows) {
        db.recreateDatabase(schema);
        db.execute("CREATE TABLE " + schema + ".t (id INT PRIMARY KEY, v VARCHAR(40), n INT)",
                "CREATE TABLE " + schema + ".marker (id INT PRIMARY KEY)");
        for (int from = 1; from <= rows; from += 1000) {
            StringBuilder sql = new StringBuilder("INSERT INTO " + schema + ".t VALUES ");
            for (int id = from; id < Math.min(from + 1000, rows + 1); id++) {
                sql.append(id == from ? "" : ",").append('(').append(id).append(", 'row ").append(id).append("', ")
                        .append(id % 7 == 0 ? "NULL" : "0").append(')');
            }
            db.execute(sql.toString());
        }
        return db.currentBinlogPosition();
    }

    /** Writes marker row {@code id} and waits until the consumer applied it, and so every change before it. */
    void catchUp(int id, CanalDaemon from, KeyedTableConsumer consumer) {
        db.execute("INSERT INTO " + schema + ".marker VALUES (" + id + ")");
        from.awaitOrShowLogs("the marker row after the last change", Duration.ofSeconds(60),
                () -> consumer.table("marker").containsKey(Integer.toString(id)));
    }

    /** The rows of {@code t} as a consumer applying everything by key holds them. */
    Map<String, Map<String, String>> selectAll() {
        return db.rowsByKey("SELECT id, v, n FROM " + schema + ".t");
    }
}
