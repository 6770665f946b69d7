package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import dev.canal.testsupport.PulsarBroker;
import dev.canal.testsupport.PulsarBrokerExtension;
import dev.canal.testsupport.TcpPorts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    private static final String SCHEMA = "deployer_pulsar";
    private static final String DESTINATION = "pulsar_mode";
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
    void rowsReachTheTopicAsFlatMessagesAndNoTcpPortIsServed(MySqlServer db, PulsarBroker broker) throws Exception {
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE " + SCHEMA + ".t (id INT PRIMARY KEY, v VARCHAR(32))");
        RealSourceConf.writeInstance(conf, DESTINATION, db, SCHEMA, "canal.mq.topic=canal_rows");
        int tcpPort = TcpPorts.free();
        controller = CanalLauncher.start(RealSourceConf.canalProperties(conf, DESTINATION,
                "canal.serverMode", "pulsarMQ", "canal.port", String.valueOf(tcpPort),
                "pulsarmq.serverUrl", broker.serviceUrl(), "pulsarmq.roleToken", "",
                "pulsarmq.topicTenantPrefix", "persistent://public/default"));

        assertThat(controller.port()).isEqualTo(-1);
        assertThat(TcpPorts.isListening(tcpPort)).isFalse();
        for (int id = 1; id <= 5; id++) {
            db.execute("INSERT INTO " + SCHEMA + ".t VALUES (" + id + ", 'row " + id + "')");
        }

        List<Integer> ids = new ArrayList<>();
        try (PulsarClient client = PulsarClient.builder().serviceUrl(broker.serviceUrl()).build();
                Reader<byte[]> reader = client.newReader().topic("persistent://public/default/canal_rows")
                        .startMessageId(MessageId.earliest).create()) {
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (ids.size() < 5 && System.nanoTime() < deadline) {
                Message<byte[]> m = reader.readNext(200, TimeUnit.MILLISECONDS);
                if (m == null) {
                    continue;
                }
                // MariaDB's annotate-rows events arrive as QUERY messages beside the rows, as in Canal
                String message = new String(m.getValue(), StandardCharsets.UTF_8);
                Matcher id = INSERTED_ID.matcher(message);
                if (message.contains("\"type\":\"INSERT\"") && id.find()) {
                    assertThat(message).contains("\"database\":\"" + SCHEMA + "\"", "\"table\":\"t\"");
                    ids.add(Integer.parseInt(id.group(1)));
                }
            }
        }
        assertThat(ids).containsExactly(1, 2, 3, 4, 5);
    }
}
