package dev.canal.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PrivateReplicaIT {

    @Test
    void aPrivateReplicaAppliesThePrimarysRowsAndLogsThemInItsOwnBinlog() throws Exception {
        MySqlServer primary = TestDatabases.startPrivate();
        MySqlServer replica = TestDatabases.startPrivateReplicaOf(primary);
        assertThat(replica.variable("server_id")).isNotEqualTo(primary.variable("server_id"));
        assertThat(replica.variable("log_slave_updates")).isIn("1", "ON");
        MySqlServer.BinlogCoordinates before = replica.currentBinlogPosition();

        primary.recreateDatabase("replicated");
        primary.execute("CREATE TABLE replicated.t (id INT PRIMARY KEY)", "INSERT INTO replicated.t VALUES (1)");

        await().atMost(Duration.ofSeconds(30)).until(() -> count(replica) == 1);
        MySqlServer.BinlogCoordinates after = replica.currentBinlogPosition();
        assertThat(after.file().compareTo(before.file()) > 0 || after.position() > before.position())
                .as("the replica's binlog moved from %s to %s", before, after).isTrue();
    }

    private static int count(MySqlServer db) {
        try (Connection c = db.adminConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM replicated.t")) {
            rs.next();
            return rs.getInt(1);
        } catch (java.sql.SQLException e) {
            return -1; // the schema has not arrived yet
        }
    }
}
