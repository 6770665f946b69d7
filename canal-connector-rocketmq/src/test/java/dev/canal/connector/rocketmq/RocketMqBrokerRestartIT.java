package dev.canal.connector.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.connector.mq.BrokerRestartScenario;
import dev.canal.connector.mq.KeyVersions;
import dev.canal.testsupport.RocketMqBroker;
import dev.canal.testsupport.RocketMqBrokerExtension;
import dev.canal.testsupport.TestProperties;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The broker is killed (SIGKILL) mid-stream and comes back on its store: every row arrives, none is lost, each key's
 * changes keep their order on the key's queue, and while the broker is away nothing is acked, so the store fills
 * and blocks the writer. What the broker answered SEND_OK before it died is in its commit log after the restart.
 */
@Tag("source-independent")
@ExtendWith(RocketMqBrokerExtension.class)
class RocketMqBrokerRestartIT {

    private static final int PARTITIONS = 4;
    private static RocketMqBroker broker;

    @BeforeAll
    static void broker(RocketMqBroker started) {
        broker = started;
    }

    @Test
    void everyRowArrivesInKeyOrderAcrossABrokerKillAndRestart() throws Exception {
        RocketMqProducer rocket = new RocketMqProducer(RocketMqConfig.from(TestProperties.of(
                "rocketmq.namesrv.addr", broker.namesrvAddr(), "rocketmq.producer.group", "canal_restart",
                "rocketmq.send.timeout", "2000")));
        new BrokerRestartScenario("RocketMQ", new BrokerRestartScenario.Broker(broker::kill, broker::restart), rocket,
                new RocketMqMode()).run(rows -> {
                    Map<Integer, List<MessageExt>> byQueue =
                            QueueReader.read(broker, BrokerRestartScenario.TOPIC, 1, Duration.ofSeconds(30));
                    KeyVersions received = new KeyVersions();
                    Map<Integer, Integer> queueOfKey = new TreeMap<>();
                    for (var queue : byQueue.entrySet()) {
                        for (MessageExt m : queue.getValue()) {
                            for (int key : received.add(m.getBody())) {
                                assertThat(queueOfKey.computeIfAbsent(key, k -> queue.getKey()))
                                        .as("one queue for key %d", key).isEqualTo(queue.getKey());
                            }
                        }
                    }
                    return received.byKey();
                }, "canal.mq.partitionsNum", Integer.toString(PARTITIONS), "canal.mq.partitionHash", "test.user:$pk$");
    }
}
