package dev.canal.connector.kafka.bench;

import dev.canal.connector.kafka.KafkaMode;
import dev.canal.connector.kafka.KafkaProducerConfig;
import dev.canal.connector.mq.bench.MqThroughput;
import dev.canal.testsupport.KafkaBroker;
import java.util.Properties;

/**
 * Rows per second from the store into Kafka, acked ({@link MqThroughput} describes a round), with the kafka.*
 * shipped values (acks=all, idempotent). The broker is a single KRaft node in a child JVM on the same machine unless
 * {@code -Dbench.bootstrap} names one.
 *
 * <pre>
 * mvn -q -pl canal-connector-kafka -am test-compile dependency:build-classpath \
 *   -Dmdep.outputFile=/tmp/kafka-bench.cp -Dmdep.includeScope=test
 * java -cp canal-connector-kafka/target/test-classes:canal-connector-kafka/target/classes:$(cat /tmp/kafka-bench.cp) \
 *   [-Dbench.bootstrap=host:port] [-Dkafka.X=value ...] dev.canal.connector.kafka.bench.KafkaMqBench \
 *   [rows rowsPerTx rounds]
 * </pre>
 * Any {@code -Dkafka.X} system property is passed on as a {@code kafka.*} setting (e.g. {@code -Dkafka.batch.size}).
 * Defaults: 200,000 rows, 10 rows per transaction, 3 rounds per mode (the first is warm-up).
 */
public final class KafkaMqBench {

    private KafkaMqBench() {
    }

    public static void main(String[] args) throws Exception {
        String external = System.getProperty("bench.bootstrap");
        try (KafkaBroker broker = external == null ? KafkaBroker.start() : null) {
            Properties kafka = new Properties();
            kafka.setProperty("kafka.bootstrap.servers", external != null ? external : broker.bootstrapServers());
            System.getProperties().stringPropertyNames().stream()
                    .filter(k -> k.startsWith(KafkaProducerConfig.PREFIX))
                    .forEach(k -> kafka.setProperty(k, System.getProperty(k)));
            MqThroughput.run(args, new KafkaMode(), topic -> kafka);
        }
    }
}
