package dev.canal.deployer;


import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import dev.canal.testsupport.PulsarBroker;
import dev.canal.testsupport.PulsarBrokerExtension;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageId;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.Reader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code canal.serverMode=pulsarMQ} with a real database and a private Pulsar standalone, configured with Canal's
 * keys only: no TCP server, and each inserted row reaching the topic under the tenant prefix as a flat message.
 */
@ExtendWith({MySqlServerExtension.class, PulsarBrokerExtension.class})
class PulsarModeIT {

    private final MqModeScenario scenario = new MqModeScenario("deployer_pulsar");

    @TempDir
    Path conf;

    @AfterEach
    void stop() {
        scenario.close();
    }

    @Test
    void rowsReachTheTopicAsFlatMessagesAndNoTcpPortIsServed(MySqlServer db, PulsarBroker broker) throws Exception {
        scenario.start(db, conf, "pulsar_mode", List.of("canal.mq.topic=canal_rows"),
                "canal.serverMode", "pulsarMQ",
                "pulsarmq.serverUrl", broker.serviceUrl(), "pulsarmq.roleToken", "",
                "pulsarmq.topicTenantPrefix", "persistent://public/default");

        try (PulsarClient client = PulsarClient.builder().serviceUrl(broker.serviceUrl()).build();
                Reader<byte[]> reader = client.newReader().topic("persistent://public/default/canal_rows")
                        .startMessageId(MessageId.earliest).create()) {
            while (scenario.waiting()) {
                Message<byte[]> m = reader.readNext(200, TimeUnit.MILLISECONDS);
                if (m != null) {
                    scenario.accept(m.getValue());
                }
            }
        }
        scenario.assertEveryRowArrivedInOrder();
    }
}
