package dev.canal.bench;

import dev.canal.testsupport.MySqlServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The big-and-wide workload: {@code tables} tables of {@code columns} columns in schema {@value #SCHEMA} (a
 * BIGINT key, then INT and VARCHAR(16) columns in turn), and one transaction inserting {@code rows} rows spread
 * over the tables in turn, in multi-row INSERTs of {@value #ROWS_PER_STATEMENT}.
 */
final class WideWorkload {

    static final String SCHEMA = "wide";
    static final int ROWS_PER_STATEMENT = 100;
    private static final Logger log = LoggerFactory.getLogger(WideWorkload.class);

    private final MySqlServer db;
    private final int tables;
    private final int columns;
    private final long rows;

    WideWorkload(MySqlServer db, int tables, int columns, long rows) {
        this.db = db;
        this.tables = tables;
        this.columns = columns;
        this.rows = rows;
    }

    Workload.Loaded load() throws SQLException {
        db.recreateDatabase(SCHEMA);
        long started = System.nanoTime();
        try (Connection c = db.adminConnection(); Statement st = c.createStatement()) {
            for (int t = 0; t < tables; t++) {
                st.execute(createTable(t));
            }
            log.info("created {} tables of {} columns in {} s", tables, columns,
                    (System.nanoTime() - started) / 1_000_000_000);
            st.execute("FLUSH BINARY LOGS");
            MySqlServer.BinlogCoordinates start = db.currentBinlogPosition();
            long startMillis = System.currentTimeMillis();
            c.setAutoCommit(false);
            long[] nextId = new long[tables];
            long written = 0;
            int table = 0;
            while (written < rows) {
                int n = (int) Math.min(ROWS_PER_STATEMENT, rows - written);
                st.executeUpdate(insert(table, nextId[table], n));
                nextId[table] += n;
                written += n;
                table = (table + 1) % tables;
            }
            c.commit();
            c.setAutoCommit(true);
            MySqlServer.BinlogCoordinates end = db.currentBinlogPosition();
            log.info("one transaction of {} rows over {} tables: binlog {} to {}", rows, tables, start, end);
            return new Workload.Loaded(start.file(), Workload.FIRST_EVENT, startMillis, end.file(), end.position(),
                    rows, "-");
        }
    }

    private String createTable(int table) {
        StringBuilder sql = new StringBuilder("CREATE TABLE ").append(SCHEMA).append('.').append(name(table))
                .append(" (id BIGINT PRIMARY KEY");
        for (int i = 1; i < columns; i++) {
            sql.append(", c").append(i).append(i % 2 == 1 ? " INT" : " VARCHAR(16)");
        }
        return sql.append(')').toString();
    }

    private String insert(int table, long firstId, int n) {
        StringBuilder sql = new StringBuilder(n * columns * 8).append("INSERT INTO ").append(SCHEMA).append('.')
                .append(name(table)).append(" VALUES ");
        for (int r = 0; r < n; r++) {
            long id = firstId + r;
            sql.append(r == 0 ? "(" : ",(").append(id);
            for (int i = 1; i < columns; i++) {
                sql.append(',');
                if (i % 2 == 1) {
                    sql.append(id + i);
                } else {
                    sql.append("'v").append(id % 100_000).append('-').append(i).append('\'');
                }
            }
            sql.append(')');
        }
        return sql.toString();
    }

    static String name(int table) {
        return String.format("w%04d", table);
    }
}
