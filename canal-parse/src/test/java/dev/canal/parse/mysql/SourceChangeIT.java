package dev.canal.parse.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.binlog.net.MysqlServerException;
import dev.canal.protocol.position.EntryPosition;
import dev.canal.protocol.position.LogIdentity;
import dev.canal.protocol.position.LogPosition;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.TestDatabases;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * A stored position read from one server is not used as a file and offset on another: when the configured address
 * names another server, or error 1236 comes from a server whose server_id is not the stored one, the start is
 * located by the stored time less {@code canal.instance.fallbackIntervalInSeconds}, as in Canal.
 */
class SourceChangeIT extends ParserITSupport {

    private static MySqlServer second;

    private static synchronized MySqlServer secondServer() {
        if (second == null) {
            second = TestDatabases.startPrivate();
        }
        return second;
    }

    @Test
    void aPositionReadFromAnotherServerIsLocatedByItsTimeOnTheNewOne(MySqlServer first) throws Exception {
        MySqlServer other = secondServer();
        other.recreateDatabase("moved");
        other.execute("CREATE TABLE moved.t (id INT PRIMARY KEY)", "INSERT INTO moved.t VALUES (1)");
        Thread.sleep(2100); // binlog times have one-second resolution: a whole second between old and new rows
        first.recreateDatabase("moved");
        first.execute("CREATE TABLE moved.t (id INT PRIMARY KEY)");
        if (first.currentBinlogPosition().file().equals(other.currentBinlogPosition().file())) {
            // two fresh servers write alike: give the first a file the other lacks, as servers with their own
            // history have, so reading the stored file and offset on the other cannot pass by chance
            first.execute("FLUSH BINARY LOGS");
        }
        MySqlServer.BinlogCoordinates from = first.currentBinlogPosition();
        first.execute("INSERT INTO moved.t VALUES (100)");
        startParser(first, "moved", from);
        assertThat(insertedIds(drainUntil(1))).containsExactly("100");
        parser.stop();
        Thread.sleep(1100);
        other.execute("INSERT INTO moved.t VALUES (2)");

        Properties p = properties(other, "moved", null);
        p.setProperty(MysqlParserConfig.FALLBACK_INTERVAL.name(), "0");
        startParserOnly(p);

        assertThat(insertedIds(drainUntil(1))).as("rows of the new server after the stored time").containsExactly("2");
        assertThat(parser.failure()).isNull();
    }

    @Test
    void error1236FromAnotherServerIdAtTheSameAddressLocatesByTheStoredTime() throws Exception {
        MySqlServer db = secondServer();
        db.recreateDatabase("replaced");
        db.execute("CREATE TABLE replaced.t (id INT PRIMARY KEY)", "INSERT INTO replaced.t VALUES (1)");
        Thread.sleep(2100);
        long stored = System.currentTimeMillis();
        Thread.sleep(1100);
        db.execute("INSERT INTO replaced.t VALUES (2)");
        long otherServerId = Long.parseLong(db.variable("server_id")) + 1000;
        positions.persist("it", new LogPosition(LogIdentity.of(db.host(), db.port()),
                EntryPosition.of("mysql-bin.999999", 4, otherServerId, stored)));

        Properties p = properties(db, "replaced", null);
        p.setProperty(MysqlParserConfig.FALLBACK_INTERVAL.name(), "0");
        startParser(p);

        assertThat(insertedIds(drainUntil(1))).containsExactly("2");
        assertThat(parser.failure()).isNull();
    }

    @Test
    void error1236FromTheServerThatWroteTheStoredPositionStillStopsWithAnAlarm() {
        MySqlServer db = secondServer();
        long serverId = Long.parseLong(db.variable("server_id"));
        positions.persist("it", new LogPosition(LogIdentity.of(db.host(), db.port()),
                EntryPosition.of("mysql-bin.999999", 4, serverId, System.currentTimeMillis())));

        startParser(properties(db, "purged", null));

        await().atMost(Duration.ofSeconds(20)).until(() -> !parser.isStart());
        assertThat(parser.failure()).isInstanceOf(MysqlServerException.class).hasMessageContaining("1236");
    }
}
