package dev.canal.bench.differential;

import dev.canal.testsupport.MySqlServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Runs workload steps in order on one session of the admin account, keeping what each check's SELECT returns. */
final class WorkloadRunner {

    private WorkloadRunner() {
    }

    /** The rows each {@link DifferentialWorkload.Check} selected, by table: column label to value (null for NULL). */
    static Map<String, List<Map<String, String>>> run(MySqlServer db, List<DifferentialWorkload.Step> steps)
            throws SQLException {
        Map<String, List<Map<String, String>>> selected = new LinkedHashMap<>();
        try (Connection c = db.adminConnection(); Statement st = c.createStatement()) {
            for (DifferentialWorkload.Step step : steps) {
                if (step instanceof DifferentialWorkload.Check check) {
                    selected.put(check.table(), rows(st, check.select()));
                } else {
                    execute(st, ((DifferentialWorkload.Sql) step).sql(), db);
                }
            }
        }
        return selected;
    }

    private static void execute(Statement st, String sql, MySqlServer db) throws SQLException {
        try {
            st.execute(sql);
        } catch (SQLException e) {
            throw new SQLException("workload statement failed on " + db + ": " + sql, e);
        }
    }

    private static List<Map<String, String>> rows(Statement st, String select) throws SQLException {
        List<Map<String, String>> rows = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(select)) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                Map<String, String> row = new LinkedHashMap<>();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    row.put(md.getColumnLabel(i), rs.getString(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
