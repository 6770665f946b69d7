package dev.canal.deployer;


import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import dev.canal.testsupport.RabbitMqBroker;
import dev.canal.testsupport.RabbitMqBrokerExtension;
import java.nio.file.Path;
import java.util.List;
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

    private final MqModeScenario scenario = new MqModeScenario("deployer_rabbitmq");

    @TempDir
    Path conf;

    @AfterEach
    void stop() {
        scenario.close();
    }

    @Test
    void rowsReachTheBoundQueueAsFlatMessagesAndNoTcpPortIsServed(MySqlServer db, RabbitMqBroker broker)
            throws Exception {
        scenario.start(db, conf, "rabbitmq_mode", List.of("canal.mq.topic=canal_rows"),
                "canal.serverMode", "rabbitMQ",
                "rabbitmq.host", broker.address(), "rabbitmq.virtual.host", "/", "rabbitmq.exchange", "canal.exchange",
                "rabbitmq.username", "guest", "rabbitmq.password", "guest", "rabbitmq.queue", "canal_queue",
                "rabbitmq.routingKey", "canal_rows", "rabbitmq.deliveryMode", "direct");

        ConnectionFactory factory = new ConnectionFactory();
        factory.setPort(broker.port());
        try (Connection c = factory.newConnection(); Channel ch = c.createChannel()) {
            ch.queueDeclare("canal_queue", true, false, false, null);
            while (scenario.waiting()) {
                GetResponse r = ch.basicGet("canal_queue", true);
                if (r == null) {
                    Thread.sleep(50); // polling a queue: basicGet has no wait of its own
                    continue;
                }
                scenario.accept(r.getBody());
            }
        }
        scenario.assertEveryRowArrivedInOrder();
    }
}
