package dev.canal.connector.rabbitmq.bench;

import dev.canal.connector.mq.bench.MqThroughput;
import dev.canal.connector.rabbitmq.RabbitMqConfig;
import dev.canal.connector.rabbitmq.RabbitMqMode;
import dev.canal.testsupport.RabbitMqBroker;
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
        String external = System.getProperty("bench.rabbitmq");
        try (RabbitMqBroker broker = external == null ? RabbitMqBroker.start() : null) {
            MqThroughput.run(args, new RabbitMqMode(), topic -> {
                Properties rabbit = new Properties();
                rabbit.setProperty(RabbitMqConfig.HOST.name(), external != null ? external : broker.address());
                rabbit.setProperty(RabbitMqConfig.QUEUE.name(), topic);
                return rabbit;
            });
        }
    }
}
