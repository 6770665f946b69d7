package dev.canal.connector.kafka.bench;

import dev.canal.connector.kafka.KafkaMqRunner;
import dev.canal.connector.kafka.KafkaProducerConfig;
import dev.canal.connector.mq.MqConfig;
import dev.canal.connector.mq.MqDestinationWorker;
import dev.canal.connector.mq.TestRows;
import dev.canal.instance.TestInstance;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.position.LogPosition;
import dev.canal.server.EmbeddedCanalServer;
import dev.canal.store.StoreConfig;
import dev.canal.testsupport.KafkaBroker;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Rows per second from the store into Kafka, acked: a writer thread puts pre-built transactions into a real
 * memory store (Canal's defaults: MEMSIZE, 16384 slots), the Kafka MQ runner pulls them with Canal's defaults
 * (canalBatchSize 50, canalGetTimeout 100 ms, kafka.* shipped values, acks=all, idempotent) and the clock stops
 * when the last transaction's END is acked, i.e. after Kafka acknowledged every record. Each transaction
 * inserts {@code rowsPerTx} rows of a 4-column table (int key, varchar, text, decimal), one row per entry.
 * The broker is a single KRaft node in a child JVM on the same machine unless {@code -Dbench.bootstrap} names one.
 *
 * <pre>
 * cd /work/main && mvn -q -pl .,canal-connector-kafka test-compile \
 *   org.codehaus.mojo:exec-maven-plugin:3.5.0:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=dev.canal.connector.kafka.bench.KafkaMqBench \
 *   [-Dexec.args="rows rowsPerTx rounds"] [-Dbench.bootstrap=host:port] [-Dkafka.X=value ...]
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
        String bootstrap = external != null ? external : broker.bootstrapServers();
        try {
            List<List<CanalEntry.Entry>> transactions = transactions(rows, rowsPerTx);
            for (String mode : List.of("flat", "protobuf")) {
                for (int round = 0; round < rounds; round++) {
                    double rate = round(bootstrap, mode, round, transactions, rows);
                    System.out.printf("%-8s round %d%s: %,.0f rows/s%n", mode, round, round == 0 ? " (warm-up)" : "", rate);
                }
            }
        } finally {
            if (broker != null) {
                broker.close();
            }
        }
    }

    private static double round(String bootstrap, String mode, int round, List<List<CanalEntry.Entry>> transactions,
            int rows) throws InterruptedException {
        boolean flat = mode.equals("flat");
        String destination = "bench_" + mode + "_" + round;
        TestInstance instance = new TestInstance(destination, StoreConfig.defaults().withRaw(!flat));
        EmbeddedCanalServer server = new EmbeddedCanalServer(d -> instance);
        server.start();
        server.start(destination);
        Properties kafka = new Properties();
        kafka.setProperty("kafka.bootstrap.servers", bootstrap);
        System.getProperties().stringPropertyNames().stream().filter(k -> k.startsWith(KafkaProducerConfig.PREFIX))
                .forEach(k -> kafka.setProperty(k, System.getProperty(k)));
        Properties mq = new Properties();
        mq.setProperty(MqConfig.TOPIC.name(), destination);
        mq.setProperty(MqConfig.FLAT_MESSAGE.name(), Boolean.toString(flat));
        List<CanalEntry.Entry> last = transactions.get(transactions.size() - 1);
        long lastEnd = last.get(last.size() - 1).getHeader().getLogfileOffset();
        ClientIdentity client = new ClientIdentity(destination, MqDestinationWorker.CLIENT_ID);
        try (KafkaMqRunner runner = new KafkaMqRunner(server, KafkaProducerConfig.from(kafka))) {
            Thread writer = new Thread(() -> transactions.forEach(instance::put), "bench-writer");
            long start = System.nanoTime();
            writer.start();
            runner.start(destination, MqConfig.from(mq));
            while (true) {
                LogPosition cursor = instance.getMetaManager().hasSubscribe(client)
                        ? instance.getMetaManager().getCursor(client) : null;
                if (cursor != null && cursor.position().position() == lastEnd) {
                    break;
                }
                Thread.sleep(5); // polling the cursor; the measured work runs on other threads
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            writer.join();
            return rows / seconds;
        } finally {
            server.stop();
        }
    }

    private static List<List<CanalEntry.Entry>> transactions(int rows, int rowsPerTx) {
        List<List<CanalEntry.Entry>> transactions = new ArrayList<>();
        long offset = 4;
        for (int row = 0; row < rows; row += rowsPerTx) {
            List<CanalEntry.Entry> entries = new ArrayList<>();
            for (int i = 0; i < rowsPerTx; i++) {
                int key = row + i;
                entries.add(TestRows.insert(offset + 1 + i, "bench", "user", List.of(
                        TestRows.user(key, "name-" + key, "a note about row " + key, (key % 1000) + ".25"))));
            }
            transactions.add(TestRows.transaction(offset, entries));
            offset += rowsPerTx + 2;
        }
        return transactions;
    }
}
