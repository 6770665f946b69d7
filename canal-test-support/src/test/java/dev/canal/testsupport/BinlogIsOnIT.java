package dev.canal.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(MySqlServerExtension.class)
class BinlogIsOnIT {

    @Test
    void insertAdvancesTheBinlogPosition(MySqlServer db) {
        db.recreateDatabase("smoke");
        db.execute("CREATE TABLE smoke.t (id INT PRIMARY KEY, v VARCHAR(20))");
        MySqlServer.BinlogCoordinates before = db.currentBinlogPosition();

        db.execute("INSERT INTO smoke.t VALUES (1, 'hello')");

        MySqlServer.BinlogCoordinates after = db.currentBinlogPosition();
        assertThat(after.file()).isNotBlank();
        assertThat(after.file().compareTo(before.file()) > 0 || after.position() > before.position())
                .as("binlog moved from %s to %s", before, after).isTrue();
    }

    @Test
    void serverWritesFullRowImagesInRowFormat(MySqlServer db) {
        assertThat(db.variable("binlog_format")).isEqualToIgnoringCase("ROW");
        assertThat(db.variable("binlog_row_image")).isEqualToIgnoringCase("FULL");
    }

    @Test
    void replicationAccountCanReadBinlogStatus(MySqlServer db) throws Exception {
        String sql = db.isMariaDb() ? "SHOW MASTER STATUS" : "SHOW BINARY LOG STATUS";
        try (Connection c = db.replicationConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(2)).isGreaterThan(4);
        }
    }
}
