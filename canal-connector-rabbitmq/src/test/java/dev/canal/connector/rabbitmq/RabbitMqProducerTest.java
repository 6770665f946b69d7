package dev.canal.connector.rabbitmq;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.connector.mq.MqRecord;
import dev.canal.connector.mq.MqSendException;
import dev.canal.testsupport.TcpPorts;
import dev.canal.testsupport.TestProperties;
import java.util.List;
import org.junit.jupiter.api.Test;

class RabbitMqProducerTest {

    @Test
    void unreachableBrokerFailsTheBatchNamingTheAddressAndNotThePassword() {
        int port = TcpPorts.free();
        try (RabbitMqProducer producer = new RabbitMqProducer(RabbitMqConfig.from(TestProperties.of(
                "rabbitmq.host", "127.0.0.1:" + port, "rabbitmq.password", "s3cret")))) {
            assertThatThrownBy(() -> producer.sendAll("destination d batch 7",
                    List.of(new MqRecord("t", 0, new byte[] {1}))))
                    .isInstanceOf(MqSendException.class)
                    .hasMessageStartingWith("destination d batch 7: cannot connect to RabbitMQ at 127.0.0.1:" + port)
                    .hasMessageNotContaining("s3cret");
        }
    }
}
