package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.deployer.admin.AdminStandIn;
import dev.canal.deployer.admin.TableInstance;
import dev.canal.instance.spring.InstanceProperties.Source;
import dev.canal.server.netty.AuthScramble;
import dev.canal.testsupport.LogCapture;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.KafkaBroker;
import dev.canal.testsupport.MySqlServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * canal-admin's manager mode in kafka mode, with a real broker: an instance taken from canal-admin sends its rows
 * to its topic, follows a topic changed there, and its MQ worker stops with it when it is removed there.
 */
@ExtendWith(MySqlServerExtension.class)
class ManagerModeKafkaIT {

    private static final String SCHEMA = "admin_manager_kafka";
    private static final String DESTINATION = "mq";
    private static final String PASSWORD = "admin";
    private static final Duration WAIT = Duration.ofSeconds(60);

    private static KafkaBroker broker;

    @TempDir
    Path data;

    private AdminStandIn admin;
    private CanalStarter starter;
    private LogCapture reloads;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = KafkaBroker.start();
        broker.createTopic("admin_first_topic", 1);
        broker.createTopic("admin_second_topic", 1);
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    @BeforeEach
    void watchWorkers() {
        reloads = LogCapture.attachToRoot();
    }

    @AfterEach
    void stop() {
        reloads.close();
        if (starter != null) {
            starter.stop();
        }
        if (admin != null) {
            admin.close();
        }
    }

    @Test
    void theWorkerOfAnInstanceFromCanalAdminFollowsItsTopicAndStopsWithIt(MySqlServer db) throws Exception {
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE " + SCHEMA + ".t (id INT PRIMARY KEY)");
        admin = new AdminStandIn("admin", AuthScramble.passwordHash(PASSWORD), String.join("\n",
                "canal.serverMode = kafka",
                "kafka.bootstrap.servers = " + broker.bootstrapServers(),
                "canal.metrics.pull.port = 0",
                "canal.conf.dir = " + data,
                "canal.file.data.dir = " + data,
                "canal.auto.scan = true",
                "canal.auto.scan.interval = 1"));
        admin.putInstance(DESTINATION, TableInstance.properties(db, SCHEMA, "t") + "canal.mq.topic = admin_first_topic\n");
        Properties local = new Properties();
        local.setProperty("canal.register.ip", "127.0.0.1");
        local.setProperty("canal.admin.manager", admin.address());
        local.setProperty("canal.admin.passwd", AuthScramble.passwordHash(PASSWORD));
        starter = CanalStarter.start(new Source(data.resolve("canal_local.properties").toString(), local));

        assertThat(starter.controller().port()).isEqualTo(-1);
        db.execute("INSERT INTO " + SCHEMA + ".t VALUES (1)");
        assertThat(inserts("admin_first_topic", 1)).hasSize(1);

        admin.putInstance(DESTINATION, TableInstance.properties(db, SCHEMA, "t") + "canal.mq.topic = admin_second_topic\n");
        await().atMost(WAIT).until(() -> reloads.messages().stream().anyMatch(line -> line
                .contains("MQ worker of destination mq started: topic admin_second_topic")));
        db.execute("INSERT INTO " + SCHEMA + ".t VALUES (2)");
        assertThat(inserts("admin_second_topic", 1)).singleElement().asString().contains("\"id\":\"2\"");

        admin.removeInstance(DESTINATION);
        await().atMost(WAIT).until(() -> starter.controller().deployedDestinations().isEmpty()
                && !starter.controller().server().isStart(DESTINATION));
        assertThat(reloads.messages())
                .filteredOn(line -> line.equals("MQ worker of destination mq stopped")).hasSize(2); // reload, removal
    }

    private static List<String> inserts(String topic, int wanted) {
        return broker.readFromStart(topic, wanted, WAIT).stream()
                .filter(message -> message.contains("\"type\":\"INSERT\"")).toList();
    }
}
