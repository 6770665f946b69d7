package dev.canal.connector.rocketmq.bench;

import dev.canal.connector.mq.bench.MqThroughput;
import dev.canal.connector.rocketmq.RocketMqConfig;
import dev.canal.connector.rocketmq.RocketMqMode;
import dev.canal.testsupport.RocketMqBroker;
import java.util.Properties;

/**
 * Rows per second from the store into RocketMQ, every send answered SEND_OK and the batch acked
 * ({@link MqThroughput} describes a round): each round sends to its own auto-created topic (4 queues), every message
 * on queue 0 as Canal's default {@code canal.mq.partition} does. The name server and broker are private ones on the
 * same machine (child JVMs, canal-test-rocketmq's class path) unless {@code -Dbench.rocketmq} names a name server
 * (host:port).
 *
 * <pre>
 * mvn -q -pl canal-connector-rocketmq -am test-compile dependency:build-classpath \
 *   -Dmdep.outputFile=/tmp/rocketmq-bench.cp -Dmdep.includeScope=test
 * java -cp canal-connector-rocketmq/target/test-classes:canal-connector-rocketmq/target/classes:$(cat /tmp/rocketmq-bench.cp) \
 *   [-Dbench.rocketmq=host:port] dev.canal.connector.rocketmq.bench.RocketMqBench [rows rowsPerTx rounds]
 * </pre>
 * Defaults: 200,000 rows, 10 rows per transaction, 3 rounds per mode (the first is warm-up).
 */
public final class RocketMqBench {

    private RocketMqBench() {
    }

    public static void main(String[] args) throws Exception {
        String external = System.getProperty("bench.rocketmq");
        try (RocketMqBroker broker = external == null ? RocketMqBroker.start() : null) {
            MqThroughput.run(args, new RocketMqMode(), topic -> {
                Properties rocket = new Properties();
                rocket.setProperty(RocketMqConfig.NAMESRV_ADDR.name(),
                        external != null ? external : broker.namesrvAddr());
                rocket.setProperty(RocketMqConfig.PRODUCER_GROUP.name(), "bench_" + topic);
                return rocket;
            });
        }
    }
}
