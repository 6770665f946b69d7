package dev.canal.connector.rabbitmq.bench;

import dev.canal.connector.mq.bench.MqThroughput;
import dev.canal.connector.rabbitmq.RabbitMqConfig;
import dev.canal.connector.rabbitmq.RabbitMqRunner;
import dev.canal.protocol.CanalEntry;
import dev.canal.testsupport.RabbitMqBroker;
import java.util.List;
import java.util.Properties;

/**
 * Rows per second from the store into RabbitMQ, confirmed and acked ({@link MqThroughput} describes a round): each
 * round publishes persistent messages to a durable queue named like its topic on the default exchange, with publisher
 * confirms. The broker is a private rabbitmq-server on the same machine unless {@code -Dbench.rabbitmq} names one
 * (host:port).
 *
 * <pre>
 * mvn -q -pl canal-connector-rabbitmq -am test-compile dependency:build-classpath \
 *   -Dmdep.outputFile=/tmp/rabbitmq-bench.cp -Dmdep.includeScope=test
 * java -cp canal-connector-rabbitmq/target/test-classes:canal-connector-rabbitmq/target/classes:$(cat /tmp/rabbitmq-bench.cp) \
 *   [-Dbench.rabbitmq=host:port] dev.canal.connector.rabbitmq.bench.RabbitMqBench [rows rowsPerTx rounds]
 * </pre>
 * Defaults: 200,000 rows, 10 rows per transaction, 3 rounds per mode (the first is warm-up).
 */
public final class RabbitMqBench {

    private RabbitMqBench() {
    }

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int rowsPerTx = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        String external = System.getProperty("bench.rabbitmq");
        RabbitMqBroker broker = external == null ? RabbitMqBroker.start() : null;
        try {
            List<List<CanalEntry.Entry>> transactions = MqThroughput.transactions(rows, rowsPerTx);
            for (String mode : List.of("flat", "protobuf")) {
                for (int round = 0; round < rounds; round++) {
                    String topic = "bench_" + mode + "_" + round;
                    Properties rabbit = new Properties();
                    rabbit.setProperty(RabbitMqConfig.HOST.name(), external != null ? external : broker.address());
                    rabbit.setProperty(RabbitMqConfig.QUEUE.name(), topic);
                    double rate = MqThroughput.round(topic, mode.equals("flat"), transactions, rows,
                            server -> new RabbitMqRunner(server, RabbitMqConfig.from(rabbit)));
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
