package dev.canal.connector.pulsar;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.connector.mq.MqRecord;
import dev.canal.connector.mq.MqSendException;
import dev.canal.testsupport.TcpPorts;
import dev.canal.testsupport.TestProperties;
import java.util.List;
import org.junit.jupiter.api.Test;

class PulsarProducerTest {

    @Test
    void unreachableBrokerFailsTheBatchNamingTheAddressAndNotTheToken() {
        int port = TcpPorts.free();
        try (PulsarProducer producer = new PulsarProducer(PulsarConfig.from(TestProperties.of(
                "pulsarmq.serverUrl", "pulsar://127.0.0.1:" + port, "pulsarmq.roleToken", "s3cret",
                "pulsarmq.send.timeout", "2000")))) {
            assertThatThrownBy(() -> producer.sendAll("destination d batch 7",
                    List.of(new MqRecord("t", 0, new byte[] {1}))))
                    .isInstanceOf(MqSendException.class)
                    .hasMessageStartingWith("destination d batch 7: cannot open a producer for topic t on Pulsar at "
                            + "pulsar://127.0.0.1:" + port)
                    .hasMessageNotContaining("s3cret");
        }
    }
}
