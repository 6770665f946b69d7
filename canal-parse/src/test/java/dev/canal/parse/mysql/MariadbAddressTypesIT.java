package dev.canal.parse.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.canal.protocol.CanalEntry;
import dev.canal.testsupport.MySqlServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MariaDB's INET4, INET6 and UUID columns arrive as the text its {@code SELECT} prints (a deliberate correction of
 * Canal's raw bytes, docs/compatibility.md), with sqlType CHAR as Canal reports them.
 */
class MariadbAddressTypesIT extends ParserITSupport {

    private static final String[][] ROWS = {
            {"::ffff:10.0.0.1", "10.0.0.1", "123e4567-e89b-12d3-a456-426614174000"},
            {"2001:db8::1", "0.0.0.0", "00000000-0000-0000-0000-000000000000"},
            {"::", "255.255.255.255", "f81d4fae-7dec-41d0-a765-00a0c91e6bf6"},
            {"::1", "192.168.1.254", "018f6d3c-7a1b-7c3d-8e4f-0123456789ab"},
            {"::10.1.2.3", "1.2.3.4", "ffffffff-ffff-ffff-ffff-ffffffffffff"},
            {"2001:db8:0:1:1:1:1:1", "127.0.0.1", "6ba7b810-9dad-11d1-80b4-00c04fd430c8"},
            {"fe80::1:0:0:0:2", "10.20.30.40", "01234567-89ab-6def-8123-456789abcdef"},
            {"1::", "8.8.8.8", "00000000-0000-1000-8000-000000000000"},
            {"2001:db8:85a3::8a2e:370:7334", "100.64.0.1", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
            {"::ffff:0.0.0.0", "172.16.0.1", "00112233-4455-6677-8899-aabbccddeeff"},
    };

    private boolean history;

    @Override
    boolean schemaHistory() {
        return history;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"on demand", "schema history", "full row metadata"})
    void addressesAndUuidsArriveAsSelectPrintsThem(String mode, MySqlServer db) throws Exception {
        assumeTrue(db.isMariaDb(), "INET4, INET6 and UUID are MariaDB's types");
        assumeTrue(versionAtLeast(db, 10, 10), "INET4 came in MariaDB 10.10, UUID in 10.7");
        history = mode.equals("schema history");
        String schema = "inet_" + mode.replace(' ', '_');
        db.recreateDatabase(schema);
        db.execute("CREATE TABLE " + schema + ".t (id INT PRIMARY KEY, a INET6, b INET4, u UUID)");
        MySqlServer.BinlogCoordinates from = db.currentBinlogPosition();
        String metadataBefore = db.variable("binlog_row_metadata");
        try {
            if (mode.equals("full row metadata")) {
                // the TABLE_MAP then names the columns but carries these types as BINARY(n)
                db.execute("SET GLOBAL binlog_row_metadata = FULL");
            }
            for (int i = 0; i < ROWS.length; i++) {
                db.execute("INSERT INTO " + schema + ".t VALUES (" + i + ", '" + ROWS[i][0] + "', '" + ROWS[i][1]
                        + "', '" + ROWS[i][2] + "')");
            }
            db.execute("INSERT INTO " + schema + ".t VALUES (" + ROWS.length + ", NULL, NULL, NULL)");
        } finally {
            db.execute("SET GLOBAL binlog_row_metadata = " + metadataBefore);
        }
        startParser(db, schema, from);

        Map<String, Map<String, String>> delivered = new HashMap<>();
        List<CanalEntry.Column> columns = new ArrayList<>();
        for (CanalEntry.Entry e : rowEntriesOf(drainUntil(ROWS.length + 1))) {
            for (CanalEntry.RowData row : rowChange(e).getRowDatasList()) {
                delivered.put(values(row.getAfterColumnsList()).get("id"), values(row.getAfterColumnsList()));
                columns.addAll(row.getAfterColumnsList());
            }
        }

        assertThat(delivered).isEqualTo(selected(db, schema));
        assertThat(columns).filteredOn(c -> !c.getName().equals("id"))
                .allSatisfy(c -> assertThat(c.getSqlType()).as(c.getName()).isEqualTo(Types.CHAR));
    }

    private static Map<String, Map<String, String>> selected(MySqlServer db, String schema) throws Exception {
        Map<String, Map<String, String>> rows = new HashMap<>();
        try (Connection c = db.adminConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT id, a, b, u FROM " + schema + ".t")) {
            while (rs.next()) {
                Map<String, String> row = new HashMap<>();
                for (String name : List.of("id", "a", "b", "u")) {
                    String v = rs.getString(name);
                    row.put(name, v == null ? "<null>" : v);
                }
                rows.put(row.get("id"), row);
            }
        }
        return rows;
    }

    private static boolean versionAtLeast(MySqlServer db, int major, int minor) {
        String[] parts = db.version().split("[.-]");
        int ma = Integer.parseInt(parts[0]);
        int mi = Integer.parseInt(parts[1]);
        return ma > major || ma == major && mi >= minor;
    }
}
