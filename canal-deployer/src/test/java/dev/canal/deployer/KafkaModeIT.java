package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.canal.testsupport.KafkaBroker;
import dev.canal.testsupport.KafkaBrokerExtension;
import dev.canal.testsupport.LogCapture;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import dev.canal.testsupport.TcpPorts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code canal.serverMode=kafka} with a real database and a real KRaft broker: no TCP
 * server, raw entries off for flat messages, and each inserted row reaching the topic as a flat JSON message.
 */
@ExtendWith({MySqlServerExtension.class, KafkaBrokerExtension.class})
class KafkaModeIT {

    private static final String SCHEMA = "deployer_kafka";
    private static final String DESTINATION = "kafka_mode";
    private static final String TOPIC = "deployer_kafka_rows";
    private static final Pattern INSERTED_ID = Pattern.compile("\"data\":\\[\\{\"id\":\"(\\d+)\"");

    private static KafkaBroker broker;

    @TempDir
    Path conf;

    private CanalController controller;
    private LogCapture storeLogs;

    @BeforeAll
    static void createTopic(KafkaBroker started) {
        broker = started;
        broker.createTopic(TOPIC, 1);
    }

    @AfterEach
    void stop() {
        if (controller != null) {
            controller.stop();
        }
        if (storeLogs != null) {
            storeLogs.close();
        }
    }

    @Test
    void rowsReachTheTopicAsFlatMessagesAndNoTcpPortIsServed(MySqlServer db) throws Exception {
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE " + SCHEMA + ".t (id INT PRIMARY KEY, v VARCHAR(32))");
        RealSourceConf.writeInstance(conf, DESTINATION, db, SCHEMA, "canal.mq.topic=" + TOPIC);
        int tcpPort = TcpPorts.free();
        storeLogs = LogCapture.attach("dev.canal.store");
        controller = CanalLauncher.start(RealSourceConf.canalProperties(conf, DESTINATION,
                "canal.serverMode", "KAFKA", "canal.port", String.valueOf(tcpPort),
                "kafka.bootstrap.servers", broker.bootstrapServers()));

        assertThat(controller.port()).isEqualTo(-1);
        assertThat(TcpPorts.isListening(tcpPort)).isFalse();
        assertThat(storeLogs.messages())
                .anyMatch(line -> line.contains("raw=false"));

        for (int id = 1; id <= 5; id++) {
            db.execute("INSERT INTO " + SCHEMA + ".t VALUES (" + id + ", 'row " + id + "')");
        }
        // MariaDB's annotate-rows events arrive as QUERY messages beside the rows, as in Canal
        List<String> inserts = broker.readFromStart(TOPIC, 5, Duration.ofSeconds(60)).stream()
                .filter(message -> message.contains("\"type\":\"INSERT\"")).toList();
        List<Integer> ids = new ArrayList<>();
        for (String message : inserts) {
            assertThat(message).contains("\"database\":\"" + SCHEMA + "\"", "\"table\":\"t\"");
            Matcher m = INSERTED_ID.matcher(message);
            assertThat(m.find()).as(message).isTrue();
            ids.add(Integer.parseInt(m.group(1)));
        }
        assertThat(ids).containsExactly(1, 2, 3, 4, 5);
    }

    @Test
    void canalsLeaderOnlyAcksWithoutIdempotenceStartsWarnsNamingTheKeyAndDelivers(MySqlServer db) throws Exception {
        String schema = SCHEMA + "_acks";
        String topic = TOPIC + "_acks";
        broker.createTopic(topic, 1);
        db.recreateDatabase(schema);
        db.execute("CREATE TABLE " + schema + ".t (id INT PRIMARY KEY, v VARCHAR(32))");
        RealSourceConf.writeInstance(conf, DESTINATION, db, schema, "canal.mq.topic=" + topic);
        List<String> warnings;
        try (LogCapture producerLogs = LogCapture.attach("dev.canal.connector.kafka")) {
            controller = CanalLauncher.start(RealSourceConf.canalProperties(conf, DESTINATION,
                    "canal.serverMode", "kafka", "kafka.bootstrap.servers", broker.bootstrapServers(),
                    "kafka.acks", "1", "kafka.enable.idempotence", "false", "kafka.retries", "0"));
            warnings = producerLogs.messages(Level.WARN);
        }

        assertThat(warnings).anyMatch(line -> line.startsWith("kafka.acks=1:"));
        db.execute("INSERT INTO " + schema + ".t VALUES (7, 'row 7')");
        assertThat(broker.readFromStart(topic, 1, Duration.ofSeconds(60))).anyMatch(m -> m.contains("\"type\":\"INSERT\"")
                && m.contains("\"database\":\"" + schema + "\"") && m.contains("\"id\":\"7\""));
    }
}
