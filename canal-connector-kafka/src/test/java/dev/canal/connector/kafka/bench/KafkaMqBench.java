package dev.canal.connector.kafka.bench;

import dev.canal.connector.kafka.KafkaMqRunner;
import dev.canal.connector.kafka.KafkaProducerConfig;
import dev.canal.connector.mq.bench.MqThroughput;
import dev.canal.protocol.CanalEntry;
import dev.canal.testsupport.KafkaBroker;
import java.util.List;
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
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int rowsPerTx = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        String external = System.getProperty("bench.bootstrap");
        KafkaBroker broker = external == null ? KafkaBroker.start() : null;
        Properties kafka = new Properties();
        kafka.setProperty("kafka.bootstrap.servers", external != null ? external : broker.bootstrapServers());
        System.getProperties().stringPropertyNames().stream().filter(k -> k.startsWith(KafkaProducerConfig.PREFIX))
                .forEach(k -> kafka.setProperty(k, System.getProperty(k)));
        try {
            List<List<CanalEntry.Entry>> transactions = MqThroughput.transactions(rows, rowsPerTx);
            for (String mode : List.of("flat", "protobuf")) {
                for (int round = 0; round < rounds; round++) {
                    double rate = MqThroughput.round("bench_" + mode + "_" + round, mode.equals("flat"), transactions,
                            rows, server -> new KafkaMqRunner(server, KafkaProducerConfig.from(kafka)));
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
