package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import dev.canal.testsupport.RocketMqBroker;
import dev.canal.testsupport.RocketMqBrokerExtension;
import dev.canal.testsupport.TcpPorts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code canal.serverMode=rocketMQ} with a real database and a private RocketMQ name server and broker, configured
 * with Canal's keys only: no TCP server, and each inserted row reaching the topic's queue as a flat message with
 * Canal's tag.
 */
@ExtendWith({MySqlServerExtension.class, RocketMqBrokerExtension.class})
class RocketMqModeIT {

    private static final String SCHEMA = "deployer_rocketmq";
    private static final String DESTINATION = "rocketmq_mode";
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
    @SuppressWarnings("deprecation") // the pull consumer reads a queue by offset, which is what a test wants
    void rowsReachTheTopicsQueueAsTaggedFlatMessagesAndNoTcpPortIsServed(MySqlServer db, RocketMqBroker broker)
            throws Exception {
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE " + SCHEMA + ".t (id INT PRIMARY KEY, v VARCHAR(32))");
        RealSourceConf.writeInstance(conf, DESTINATION, db, SCHEMA, "canal.mq.topic=canal_rows",
                "canal.mq.partition=1");
        int tcpPort = TcpPorts.free();
        controller = CanalLauncher.start(RealSourceConf.canalProperties(conf, DESTINATION,
                "canal.serverMode", "rocketMQ", "canal.port", String.valueOf(tcpPort),
                "rocketmq.producer.group", "canal_deployer", "rocketmq.namesrv.addr", broker.namesrvAddr(),
                "rocketmq.tag", "canal"));

        assertThat(controller.port()).isEqualTo(-1);
        assertThat(TcpPorts.isListening(tcpPort)).isFalse();
        for (int id = 1; id <= 5; id++) {
            db.execute("INSERT INTO " + SCHEMA + ".t VALUES (" + id + ", 'row " + id + "')");
        }

        List<Integer> ids = new ArrayList<>();
        DefaultMQPullConsumer consumer = new DefaultMQPullConsumer("deployer_reader");
        consumer.setNamesrvAddr(broker.namesrvAddr());
        consumer.start();
        try {
            Map<Integer, Long> offsets = new HashMap<>();
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (ids.size() < 5 && System.nanoTime() < deadline) {
                List<MessageExt> found = new ArrayList<>();
                try {
                    for (MessageQueue queue : consumer.fetchSubscribeMessageQueues("canal_rows")) {
                        PullResult r = consumer.pull(queue, "*", offsets.getOrDefault(queue.getQueueId(), 0L), 64);
                        if (r.getPullStatus() == PullStatus.FOUND) {
                            assertThat(queue.getQueueId()).as("canal.mq.partition").isEqualTo(1);
                            found.addAll(r.getMsgFoundList());
                            offsets.put(queue.getQueueId(), r.getNextBeginOffset());
                        }
                    }
                } catch (MQClientException e) {
                    // the topic is created by the first send
                }
                if (found.isEmpty()) {
                    Thread.sleep(100); // polling the queues: the pull consumer has no wait of its own here
                }
                for (MessageExt m : found) {
                    // MariaDB's annotate-rows events arrive as QUERY messages beside the rows, as in Canal
                    String message = new String(m.getBody(), StandardCharsets.UTF_8);
                    assertThat(m.getTags()).isEqualTo("canal");
                    Matcher matcher = INSERTED_ID.matcher(message);
                    if (message.contains("\"type\":\"INSERT\"") && matcher.find()) {
                        assertThat(message).contains("\"database\":\"" + SCHEMA + "\"", "\"table\":\"t\"");
                        ids.add(Integer.parseInt(matcher.group(1)));
                    }
                }
            }
        } finally {
            consumer.shutdown();
        }
        assertThat(ids).containsExactly(1, 2, 3, 4, 5);
    }
}
