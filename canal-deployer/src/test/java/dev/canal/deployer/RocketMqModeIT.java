package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import dev.canal.testsupport.RocketMqBroker;
import dev.canal.testsupport.RocketMqBrokerExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

    private final MqModeScenario scenario = new MqModeScenario("deployer_rocketmq");

    @TempDir
    Path conf;

    @AfterEach
    void stop() {
        scenario.close();
    }

    @Test
    @SuppressWarnings("deprecation") // the pull consumer reads a queue by offset, which is what a test wants
    void rowsReachTheTopicsQueueAsTaggedFlatMessagesAndNoTcpPortIsServed(MySqlServer db, RocketMqBroker broker)
            throws Exception {
        scenario.start(db, conf, "rocketmq_mode", List.of("canal.mq.topic=canal_rows", "canal.mq.partition=1"),
                "canal.serverMode", "rocketMQ",
                "rocketmq.producer.group", "canal_deployer", "rocketmq.namesrv.addr", broker.namesrvAddr(),
                "rocketmq.tag", "canal");

        DefaultMQPullConsumer consumer = new DefaultMQPullConsumer("deployer_reader");
        consumer.setNamesrvAddr(broker.namesrvAddr());
        consumer.start();
        try {
            Map<Integer, Long> offsets = new HashMap<>();
            while (scenario.waiting()) {
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
                    assertThat(m.getTags()).isEqualTo("canal");
                    scenario.accept(m.getBody());
                }
            }
        } finally {
            consumer.shutdown();
        }
        scenario.assertEveryRowArrivedInOrder();
    }

    /**
     * Canal hashes over the topic's live queue count with canal.mq.enableDynamicQueuePartition; this server does not,
     * so rather than place rows on other queues than Canal it does not start.
     */
    @Test
    void hashingOverTheLiveQueueCountStopsStartUpNamingTheKey(MySqlServer db, RocketMqBroker broker) {
        assertThatThrownBy(() -> scenario.start(db, conf, "rocketmq_dynamic", List.of("canal.mq.topic=canal_rows",
                "canal.mq.partitionHash=.*\\..*"), "canal.serverMode", "rocketMQ",
                "rocketmq.namesrv.addr", broker.namesrvAddr(), "canal.mq.enableDynamicQueuePartition", "true"))
                .hasMessageContaining("canal.mq.enableDynamicQueuePartition");
    }
}
