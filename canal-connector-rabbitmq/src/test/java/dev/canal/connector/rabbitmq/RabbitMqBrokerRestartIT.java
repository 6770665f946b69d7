package dev.canal.connector.rabbitmq;

import com.rabbitmq.client.GetResponse;
import dev.canal.connector.mq.BrokerRestartScenario;
import dev.canal.connector.mq.KeyVersions;
import dev.canal.testsupport.RabbitMqBroker;
import dev.canal.testsupport.RabbitMqBrokerExtension;
import dev.canal.testsupport.TestProperties;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The broker is killed (SIGKILL) mid-stream and comes back on its data: every row arrives, none is lost, each key's
 * changes keep their order, and while the broker is away nothing is acked, so the store fills and blocks the writer.
 * What the broker confirmed before it died is on disk in the durable queue and still there after the restart.
 */
@Tag("source-independent")
@ExtendWith(RabbitMqBrokerExtension.class)
class RabbitMqBrokerRestartIT {

    private static RabbitMqBroker broker;

    @BeforeAll
    static void broker(RabbitMqBroker started) {
        broker = started;
    }

    @Test
    void everyRowArrivesInKeyOrderAcrossABrokerKillAndRestart() throws Exception {
        RabbitMqProducer rabbit = new RabbitMqProducer(RabbitMqConfig.from(TestProperties.of(
                "rabbitmq.host", broker.address(), "rabbitmq.exchange", "canal.restart", "rabbitmq.queue", "restart_q",
                "rabbitmq.routingKey", "restart", "rabbitmq.confirm.timeout", "3000")), Duration.ofSeconds(1));
        new BrokerRestartScenario("RabbitMQ", new BrokerRestartScenario.Broker(broker::kill, broker::restart), rabbit,
                new RabbitMqMode()).run(rows -> {
                    KeyVersions received = new KeyVersions();
                    for (GetResponse m : QueueReader.read(broker, "restart_q", rows, Duration.ofSeconds(30))) {
                        received.add(m.getBody());
                    }
                    return received.byKey();
                });
    }
}
