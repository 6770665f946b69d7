package dev.canal.connector.rocketmq.bench;

import dev.canal.connector.mq.bench.MqThroughput;
import dev.canal.connector.rocketmq.RocketMqConfig;
import dev.canal.connector.rocketmq.RocketMqRunner;
import dev.canal.protocol.CanalEntry;
import dev.canal.testsupport.RocketMqBroker;
import java.util.List;
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
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int rowsPerTx = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        String external = System.getProperty("bench.rocketmq");
        RocketMqBroker broker = external == null ? RocketMqBroker.start() : null;
        try {
            List<List<CanalEntry.Entry>> transactions = MqThroughput.transactions(rows, rowsPerTx);
            for (String mode : List.of("flat", "protobuf")) {
                for (int round = 0; round < rounds; round++) {
                    String topic = "bench_" + mode + "_" + round;
                    Properties rocket = new Properties();
                    rocket.setProperty(RocketMqConfig.NAMESRV_ADDR.name(),
                            external != null ? external : broker.namesrvAddr());
                    rocket.setProperty(RocketMqConfig.PRODUCER_GROUP.name(), "bench_" + topic);
                    double rate = MqThroughput.round(topic, mode.equals("flat"), transactions, rows,
                            server -> new RocketMqRunner(server, RocketMqConfig.from(rocket)));
                    System.out.printf("%-8s round %d%s: %,.0f rows/s%n", mode, round, round == 0 ? " (warm-up)" : "", rate);
                }
            }
        } finally {
            if (broker != null) {
                broker.close();
            }
        }
    }
}
