package dev.canal.connector.rocketmq;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.connector.mq.MqRecord;
import dev.canal.connector.mq.MqSendException;
import dev.canal.testsupport.TcpPorts;
import dev.canal.testsupport.TestProperties;
import java.util.List;
import org.junit.jupiter.api.Test;

class RocketMqProducerTest {

    @Test
    void unreachableNameServerFailsTheBatchNamingTheAddressAndTheTopic() {
        int port = TcpPorts.free();
        try (RocketMqProducer producer = new RocketMqProducer(RocketMqConfig.from(TestProperties.of(
                "rocketmq.namesrv.addr", "127.0.0.1:" + port, "rocketmq.send.timeout", "1000")))) {
            assertThatThrownBy(() -> producer.sendAll("destination d batch 7",
                    List.of(new MqRecord("t", 0, new byte[] {1}))))
                    .isInstanceOf(MqSendException.class)
                    .hasMessageStartingWith("destination d batch 7: RocketMQ (name server 127.0.0.1:" + port + ")")
                    .hasMessageContaining("topic t partition 0");
        }
    }
}
