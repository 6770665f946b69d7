package dev.canal.connector.pulsar;

import dev.canal.connector.mq.BrokerRestartScenario;
import dev.canal.connector.mq.KeyVersions;
import dev.canal.testsupport.PulsarBroker;
import dev.canal.testsupport.PulsarBrokerExtension;
import dev.canal.testsupport.TestProperties;
import org.apache.pulsar.client.api.Message;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The broker is killed (SIGKILL) mid-stream and comes back on its data: every row arrives, none is lost, each key's
 * changes keep their order, and while the broker is away nothing is acked, so the store fills and blocks the writer.
 * What the broker acknowledged before it died is in its bookie's journal and still on the topic after the restart.
 */
@Tag("source-independent")
@ExtendWith(PulsarBrokerExtension.class)
class PulsarBrokerRestartIT {

    private static PulsarBroker broker;

    @BeforeAll
    static void broker(PulsarBroker started) {
        broker = started;
    }

    @Test
    void everyRowArrivesInKeyOrderAcrossABrokerKillAndRestart() throws Exception {
        PulsarProducer pulsar = new PulsarProducer(PulsarConfig.from(TestProperties.of(
                "pulsarmq.serverUrl", broker.serviceUrl(), "pulsarmq.send.timeout", "3000")));
        new BrokerRestartScenario("Pulsar", new BrokerRestartScenario.Broker(broker::kill, broker::restart), pulsar,
                new PulsarMode()).run(rows -> {
                    KeyVersions received = new KeyVersions();
                    for (Message<byte[]> m : TopicReader.readAll(broker, BrokerRestartScenario.TOPIC)) {
                        received.add(m.getValue());
                    }
                    return received.byKey();
                });
    }
}
