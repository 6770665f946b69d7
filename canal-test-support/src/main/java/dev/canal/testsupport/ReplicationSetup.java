package dev.canal.testsupport;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;

/**
 * Makes one test server a replica of another, in each flavour's words: MariaDB from the primary's current binlog
 * file and offset, MySQL by GTID auto-positioning (so the replica holds every GTID of the primary and a reader
 * that resumes by GTID set can move to it).
 */
final class ReplicationSetup {

    private static final Duration RUNNING_TIMEOUT = Duration.ofSeconds(60);

    private ReplicationSetup() {
    }

    static void follow(MySqlServer replica, MySqlServer primary) {
        if (replica.isMariaDb()) {
            MySqlServer.BinlogCoordinates from = primary.currentBinlogPosition();
            replica.execute("CHANGE MASTER TO MASTER_HOST='" + primary.host() + "', MASTER_PORT=" + primary.port()
                    + ", MASTER_USER='" + primary.replicationUser() + "', MASTER_PASSWORD='"
                    + primary.replicationPassword() + "', MASTER_LOG_FILE='" + from.file() + "', MASTER_LOG_POS="
                    + from.position() + ", MASTER_CONNECT_RETRY=1", "START SLAVE");
        } else {
            replica.execute("CHANGE REPLICATION SOURCE TO SOURCE_HOST='" + primary.host() + "', SOURCE_PORT="
                    + primary.port() + ", SOURCE_USER='" + primary.replicationUser() + "', SOURCE_PASSWORD='"
                    + primary.replicationPassword() + "', SOURCE_AUTO_POSITION=1, GET_SOURCE_PUBLIC_KEY=1, "
                    + "SOURCE_CONNECT_RETRY=1", "START REPLICA");
        }
        awaitRunning(replica);
    }

    /** Until both replication threads run; fails with the replica's last error. */
    private static void awaitRunning(MySqlServer replica) {
        String sql = replica.isMariaDb() ? "SHOW SLAVE STATUS" : "SHOW REPLICA STATUS";
        String io = replica.isMariaDb() ? "Slave_IO_Running" : "Replica_IO_Running";
        String applier = replica.isMariaDb() ? "Slave_SQL_Running" : "Replica_SQL_Running";
        Instant deadline = Instant.now().plus(RUNNING_TIMEOUT);
        String last = "no status yet";
        while (Instant.now().isBefore(deadline)) {
            try (Connection c = replica.adminConnection(); Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery(sql)) {
                if (rs.next()) {
                    last = io + "=" + rs.getString(io) + ", " + applier + "=" + rs.getString(applier)
                            + ", Last_IO_Error=" + rs.getString("Last_IO_Error") + ", Last_SQL_Error="
                            + rs.getString("Last_SQL_Error");
                    if ("Yes".equals(rs.getString(io)) && "Yes".equals(rs.getString(applier))) {
                        return;
                    }
                }
            } catch (SQLException e) {
                last = e.getMessage();
            }
            try {
                Thread.sleep(200); // polling the replica's status; there is no event to wait on
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for replication on " + replica, e);
            }
        }
        throw new IllegalStateException("replication on " + replica + " did not start within " + RUNNING_TIMEOUT
                + ": " + last);
    }
}
