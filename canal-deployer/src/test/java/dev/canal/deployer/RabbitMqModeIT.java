package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import dev.canal.testsupport.RabbitMqBroker;
import dev.canal.testsupport.RabbitMqBrokerExtension;
import dev.canal.testsupport.TcpPorts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code canal.serverMode=rabbitMQ} with a real database and a private rabbitmq-server, configured with Canal's keys
 * only: no TCP server, and each inserted row reaching the queue Canal's settings declare and bind, as a flat message.
 */
@ExtendWith({MySqlServerExtension.class, RabbitMqBrokerExtension.class})
class RabbitMqModeIT {

    private static final String SCHEMA = "deployer_rabbitmq";
    private static final String DESTINATION = "rabbitmq_mode";
    private static final Pattern INSERTED_ID = Pattern.compile("\"data\":\\[\\{\"id\":\"(\\d+)\"");

    @TempDir
    Path conf;

    private CanalController controller;

    @AfterEach
    void stop() {
        if (controller != null) {
            controller.stop();
        }
    }

    @Test
    void rowsReachTheBoundQueueAsFlatMessagesAndNoTcpPortIsServed(MySqlServer db, RabbitMqBroker broker)
            throws Exception {
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE " + SCHEMA + ".t (id INT PRIMARY KEY, v VARCHAR(32))");
        RealSourceConf.writeInstance(conf, DESTINATION, db, SCHEMA, "canal.mq.topic=canal_rows");
        int tcpPort = TcpPorts.free();
        controller = CanalLauncher.start(RealSourceConf.canalProperties(conf, DESTINATION,
                "canal.serverMode", "rabbitMQ", "canal.port", String.valueOf(tcpPort),
                "rabbitmq.host", broker.address(), "rabbitmq.virtual.host", "/", "rabbitmq.exchange", "canal.exchange",
                "rabbitmq.username", "guest", "rabbitmq.password", "guest", "rabbitmq.queue", "canal_queue",
                "rabbitmq.routingKey", "canal_rows", "rabbitmq.deliveryMode", "direct"));

        assertThat(controller.port()).isEqualTo(-1);
        assertThat(TcpPorts.isListening(tcpPort)).isFalse();
        for (int id = 1; id <= 5; id++) {
            db.execute("INSERT INTO " + SCHEMA + ".t VALUES (" + id + ", 'row " + id + "')");
        }

        List<Integer> ids = new ArrayList<>();
        ConnectionFactory factory = new ConnectionFactory();
        factory.setPort(broker.port());
        try (Connection c = factory.newConnection(); Channel ch = c.createChannel()) {
            ch.queueDeclare("canal_queue", true, false, false, null);
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (ids.size() < 5 && System.nanoTime() < deadline) {
                GetResponse r = ch.basicGet("canal_queue", true);
                if (r == null) {
                    Thread.sleep(50); // polling a queue: basicGet has no wait of its own
                    continue;
                }
                // MariaDB's annotate-rows events arrive as QUERY messages beside the rows, as in Canal
                String message = new String(r.getBody(), StandardCharsets.UTF_8);
                Matcher m = INSERTED_ID.matcher(message);
                if (message.contains("\"type\":\"INSERT\"") && m.find()) {
                    assertThat(message).contains("\"database\":\"" + SCHEMA + "\"", "\"table\":\"t\"");
                    ids.add(Integer.parseInt(m.group(1)));
                }
            }
        }
        assertThat(ids).containsExactly(1, 2, 3, 4, 5);
    }
}
