package dev.canal.parse.snapshot;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A point of the source's binlog, file and offset, as the binlog status statement reports it right after a chunk
 * was read: every transaction the chunk's SELECT saw was written to the binlog before this point (MySQL and
 * MariaDB write a transaction to the binlog before it becomes visible).
 */
record Watermark(String file, long offset) implements Comparable<Watermark> {

    @Override
    public int compareTo(Watermark other) {
        // binlog file names share their base name and number their files with a fixed-width suffix
        int byFile = file.compareTo(other.file);
        return byFile != 0 ? byFile : Long.compare(offset, other.offset);
    }

    /**
     * The statement that reports the source's binlog position. MySQL 8.4 removed {@code SHOW MASTER STATUS} for
     * {@code SHOW BINARY LOG STATUS}, which MariaDB before 10.5.2 does not know: the new form is tried first.
     */
    static String statusQuery(Connection connection) throws SQLException {
        try {
            read(connection, "SHOW BINARY LOG STATUS");
            return "SHOW BINARY LOG STATUS";
        } catch (SQLException e) {
            read(connection, "SHOW MASTER STATUS");
            return "SHOW MASTER STATUS";
        }
    }

    static Watermark read(Connection connection, String sql) throws SQLException {
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            if (!rs.next()) {
                throw new SQLException(sql + " returned no row: binary logging is off on the source");
            }
            return new Watermark(rs.getString(1), rs.getLong(2));
        }
    }

    @Override
    public String toString() {
        return file + ":" + offset;
    }
}
