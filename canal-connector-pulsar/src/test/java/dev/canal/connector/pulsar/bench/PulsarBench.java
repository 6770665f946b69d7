package dev.canal.connector.pulsar.bench;

import dev.canal.connector.mq.bench.MqThroughput;
import dev.canal.connector.pulsar.PulsarConfig;
import dev.canal.connector.pulsar.PulsarMode;
import dev.canal.testsupport.PulsarBroker;
import java.util.Properties;

/**
 * Rows per second from the store into Pulsar, acknowledged and acked ({@link MqThroughput} describes a round): each
 * round produces to a non-partitioned persistent topic of its own, every message acknowledged by the broker (after
 * its bookie's journal write) before the batch is acked. The broker is a private standalone on the same machine
 * ({@link PulsarBroker}: Java 21+ and the class path module canal-test-pulsar-broker writes) unless
 * {@code -Dbench.pulsar} names one (its service URL).
 *
 * <pre>
 * mvn -q -pl canal-connector-pulsar -am test-compile dependency:build-classpath \
 *   -Dmdep.outputFile=/tmp/pulsar-bench.cp -Dmdep.includeScope=test
 * java -cp canal-connector-pulsar/target/test-classes:canal-connector-pulsar/target/classes:$(cat /tmp/pulsar-bench.cp) \
 *   -Dtestsupport.pulsar.classpath=canal-test-pulsar-broker/target/pulsar-broker.classpath \
 *   [-Dbench.pulsar=pulsar://host:port] dev.canal.connector.pulsar.bench.PulsarBench [rows rowsPerTx rounds]
 * </pre>
 * Defaults: 200,000 rows, 10 rows per transaction, 3 rounds per mode (the first is warm-up).
 */
public final class PulsarBench {

    private PulsarBench() {
    }

    public static void main(String[] args) throws Exception {
        String external = System.getProperty("bench.pulsar");
        try (PulsarBroker broker = external == null ? PulsarBroker.start() : null) {
            Properties pulsar = new Properties();
            pulsar.setProperty(PulsarConfig.SERVER_URL.name(), external != null ? external : broker.serviceUrl());
            MqThroughput.run(args, new PulsarMode(), topic -> pulsar);
        }
    }
}
