package dev.canal.parse.retention;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * How long the source keeps a binlog file (docs/operations.md, "Binlog retention"). MySQL and MariaDB purge a file
 * once it was last written longer ago than their expiry: {@code binlog_expire_logs_seconds}, else
 * {@code expire_logs_days}; none while both are 0 or MySQL's {@code binlog_expire_logs_auto_purge} is OFF. A file was
 * last written when the next one began, the time of that file's first event; the file being written is kept at
 * least a whole expiry longer.
 *
 * <p>The retention watch's thread only.
 */
final class BinlogRetention {

    private static final double NEVER = Double.POSITIVE_INFINITY;

    private final Supplier<Connection> connections;
    private final BinlogFileStarts fileStarts;
    /** the start of each binlog file asked so far, while the source still lists it */
    private final Map<String, Long> starts = new HashMap<>();

    BinlogRetention(Supplier<Connection> connections, BinlogFileStarts fileStarts) {
        this.connections = connections;
        this.fileStarts = fileStarts;
    }

    /**
     * Seconds until the source's expiry would purge each of {@code files}, by the source's clock: 0 for a file the
     * source no longer has, infinity when it never expires binlogs.
     */
    Map<String, Double> secondsLeft(Set<String> files) throws SQLException, IOException {
        long expiry;
        List<String> binlogs = new ArrayList<>();
        long now;
        try (Connection c = connections.get(); Statement st = c.createStatement()) {
            expiry = expirySeconds(variables(st));
            try (ResultSet rs = st.executeQuery("SHOW BINARY LOGS")) {
                while (rs.next()) {
                    binlogs.add(rs.getString(1));
                }
            }
            try (ResultSet rs = st.executeQuery("SELECT UNIX_TIMESTAMP()")) {
                rs.next();
                now = rs.getLong(1);
            }
        }
        starts.keySet().retainAll(binlogs);
        Map<String, Double> left = new HashMap<>();
        for (String file : files) {
            left.put(file, secondsLeft(file, binlogs, expiry, now));
        }
        return left;
    }

    private double secondsLeft(String file, List<String> binlogs, long expiry, long now) throws IOException {
        if (expiry == 0) {
            return NEVER;
        }
        int index = binlogs.indexOf(file);
        if (index < 0) {
            return 0;
        }
        if (index == binlogs.size() - 1) {
            return expiry;
        }
        String next = binlogs.get(index + 1);
        Long lastWritten = starts.get(next);
        if (lastWritten == null) {
            lastWritten = fileStarts.startSeconds(next);
            starts.put(next, lastWritten);
        }
        return Math.max(0, lastWritten + expiry - now);
    }

    private static Map<String, String> variables(Statement st) throws SQLException {
        Map<String, String> values = new HashMap<>();
        try (ResultSet rs = st.executeQuery("SHOW GLOBAL VARIABLES WHERE Variable_name IN "
                + "('binlog_expire_logs_seconds', 'expire_logs_days', 'binlog_expire_logs_auto_purge')")) {
            while (rs.next()) {
                values.put(rs.getString(1).toLowerCase(Locale.ROOT), rs.getString(2));
            }
        }
        return values;
    }

    /** The expiry in seconds those variables give; 0 when binlogs never expire. */
    static long expirySeconds(Map<String, String> variables) {
        if ("OFF".equalsIgnoreCase(variables.get("binlog_expire_logs_auto_purge"))) {
            return 0;
        }
        long seconds = Long.parseLong(variables.getOrDefault("binlog_expire_logs_seconds", "0").trim());
        if (seconds > 0) {
            return seconds;
        }
        return Math.round(Double.parseDouble(variables.getOrDefault("expire_logs_days", "0").trim()) * 86_400);
    }
}
