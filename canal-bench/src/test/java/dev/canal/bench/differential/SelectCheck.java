package dev.canal.bench.differential;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.testsupport.MySqlServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where Canal's rows are wrong (or it cannot read them), ours are checked against the source itself: replaying our
 * row changes of a checked table (by its {@code id} column) must leave every column we name with the value SELECT
 * returned at the check. A partial JSON update arrives as an expression over the column
 * ({@code JSON_REPLACE(doc, '$.s', "new")}); it is evaluated by the source on the value before it.
 */
final class SelectCheck {

    private static final Pattern ROW_FIELD = Pattern.compile(
            "rowChange\\.rowDatas\\[(\\d+)]\\.(afterColumns|beforeColumns)\\[\\d+\\((.+)\\)]\\.(value|isNull)");
    private static final Pattern JSON_EXPRESSION = Pattern.compile("JSON_[A-Z_]+\\(.*", Pattern.DOTALL);

    private SelectCheck() {
    }

    static void ourRowsAreWhatSelectReturned(MySqlServer db, List<EntryFields> ours,
            Map<String, List<Map<String, String>>> selected) throws SQLException {
        for (Map.Entry<String, List<Map<String, String>>> check : selected.entrySet()) {
            Map<String, Map<String, String>> replayed = replay(db, check.getKey(), ours);
            Map<String, Map<String, String>> expected = new TreeMap<>();
            for (Map<String, String> row : check.getValue()) {
                expected.put(row.get("id"), row);
            }
            assertThat(replayed.keySet()).as("ids of our rows of %s", check.getKey())
                    .containsExactlyElementsOf(expected.keySet());
            for (Map.Entry<String, Map<String, String>> row : replayed.entrySet()) {
                Map<String, String> select = expected.get(row.getKey());
                for (Map.Entry<String, String> column : row.getValue().entrySet()) {
                    assertThat(select).as("columns SELECT returned for %s id %s", check.getKey(), row.getKey())
                            .containsKey(column.getKey());
                    assertThat(sameValue(db, column.getValue(), select.get(column.getKey())))
                            .as("%s.%s of id %s: ours %s, SELECT %s", check.getKey(), column.getKey(), row.getKey(),
                                    column.getValue(), select.get(column.getKey())).isTrue();
                }
            }
        }
    }

    /** Our rows of {@code table} after every change we delivered: id to column name to value (null for NULL). */
    private static Map<String, Map<String, String>> replay(MySqlServer db, String table, List<EntryFields> ours)
            throws SQLException {
        Map<String, Map<String, String>> rows = new TreeMap<>();
        for (EntryFields entry : ours) {
            if (!"ROWDATA".equals(entry.get("entryType")) || !table.equals(entry.get("header.tableName"))) {
                continue;
            }
            String type = entry.get("header.eventType");
            for (Map<String, Map<String, String>> change : changes(entry)) {
                Map<String, String> before = change.getOrDefault("beforeColumns", Map.of());
                Map<String, String> after = change.getOrDefault("afterColumns", Map.of());
                if ("DELETE".equals(type)) {
                    rows.remove(before.get("id"));
                    continue;
                }
                String id = after.containsKey("id") ? after.get("id") : before.get("id");
                Map<String, String> row = rows.computeIfAbsent(id, k -> new LinkedHashMap<>());
                for (Map.Entry<String, String> column : after.entrySet()) {
                    String value = column.getValue();
                    if (value != null && JSON_EXPRESSION.matcher(value).matches()) {
                        value = evaluate(db, value, column.getKey(), row.get(column.getKey()));
                    }
                    row.put(column.getKey(), value);
                }
            }
        }
        return rows;
    }

    /** The entry's row changes: per row, "beforeColumns" / "afterColumns" to column name to value. */
    private static List<Map<String, Map<String, String>>> changes(EntryFields entry) {
        Map<Integer, Map<String, Map<String, String>>> byRow = new TreeMap<>();
        for (Map.Entry<String, String> field : entry.fields().entrySet()) {
            Matcher m = ROW_FIELD.matcher(field.getKey());
            if (!m.matches()) {
                continue;
            }
            Map<String, String> image = byRow.computeIfAbsent(Integer.parseInt(m.group(1)), k -> new LinkedHashMap<>())
                    .computeIfAbsent(m.group(2), k -> new LinkedHashMap<>());
            if (m.group(4).equals("isNull") && field.getValue().equals("true")) {
                image.put(m.group(3), null);
            } else if (m.group(4).equals("value") && !image.containsKey(m.group(3))) {
                image.put(m.group(3), field.getValue());
            }
        }
        return new ArrayList<>(byRow.values());
    }

    /** A partial JSON update's expression over {@code column}, evaluated by the source on the value before it. */
    private static String evaluate(MySqlServer db, String expression, String column, String before)
            throws SQLException {
        String over = expression.replaceFirst("\\(" + Pattern.quote(column) + ",", "(CAST(? AS JSON),");
        try (Connection c = db.adminConnection(); PreparedStatement st = c.prepareStatement("SELECT " + over)) {
            st.setString(1, before);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    /** Equal as text, or as JSON documents (the source compares them). */
    private static boolean sameValue(MySqlServer db, String ours, String select) throws SQLException {
        if (ours == null || select == null || ours.equals(select)) {
            return ours == null && select == null || ours != null && ours.equals(select);
        }
        char first = select.isEmpty() ? ' ' : select.charAt(0);
        if (first != '{' && first != '[') {
            return false;
        }
        try (Connection c = db.adminConnection();
                PreparedStatement st = c.prepareStatement("SELECT CAST(? AS JSON) = CAST(? AS JSON)")) {
            st.setString(1, ours);
            st.setString(2, select);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }
}
