package dev.canal.parse.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.protocol.CanalEntry;
import dev.canal.testsupport.MySqlServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code mysqlType} is the column type as the source prints it ({@code information_schema.COLUMNS.COLUMN_TYPE}),
 * display widths and zerofill included, also where the TABLE_MAP carries full metadata
 * ({@code binlog_row_metadata=FULL}), which has neither: consumers map {@code tinyint(1)} to a boolean.
 */
class MysqlTypeTextIT extends ParserITSupport {

    private boolean history;

    @Override
    boolean schemaHistory() {
        return history;
    }

    @ParameterizedTest(name = "schema history {0}")
    @ValueSource(booleans = {false, true})
    void mysqlTypeIsTheColumnTypeTheSourcePrints(boolean withHistory, MySqlServer db) throws Exception {
        history = withHistory;
        String schema = withHistory ? "type_text_history" : "type_text_on_demand";
        db.recreateDatabase(schema);
        MySqlServer.BinlogCoordinates from = db.currentBinlogPosition();
        db.execute("CREATE TABLE " + schema + ".t (id int NOT NULL PRIMARY KEY, flag tinyint(1), "
                + "z int(5) unsigned zerofill, s smallint(3) unsigned zerofill, f float(7,3), d decimal(10,2), "
                + "v varchar(20), e enum('a','b'), b bit(3), dt datetime(3))");
        db.execute("INSERT INTO " + schema + ".t VALUES (1, 1, 42, 7, 1.5, 2.25, 'x', 'a', b'101', "
                + "'2024-01-02 03:04:05.678')");
        startParser(db, schema, from);

        CanalEntry.Entry row = rowEntriesOf(drainUntil(1)).get(0);
        Map<String, String> delivered = new LinkedHashMap<>();
        for (CanalEntry.Column c : rowChange(row).getRowDatas(0).getAfterColumnsList()) {
            delivered.put(c.getName(), c.getMysqlType());
        }

        Map<String, String> printed = columnTypes(db, schema);
        if (withHistory) {
            // the history keeps each type as its DDL wrote it (docs/compatibility.md): `int` stays `int` where
            // MariaDB prints `int(11)`; the widths the DDL gave survive
            for (String column : new String[] {"flag", "z", "s", "f", "d", "b", "dt"}) {
                assertThat(delivered.get(column)).as(column).isEqualTo(printed.get(column));
            }
        } else {
            assertThat(delivered).isEqualTo(printed);
        }
        assertThat(delivered).containsEntry("flag", "tinyint(1)");
    }

    private static Map<String, String> columnTypes(MySqlServer db, String schema) throws Exception {
        Map<String, String> types = new LinkedHashMap<>();
        try (Connection c = db.adminConnection(); PreparedStatement st = c.prepareStatement(
                "SELECT COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? "
                        + "AND TABLE_NAME = 't' ORDER BY ORDINAL_POSITION")) {
            st.setString(1, schema);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    types.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        return types;
    }
}
