package dev.canal.connector.mq.bench;

import dev.canal.connector.mq.MqConfig;
import dev.canal.connector.mq.MqDestinationWorker;
import dev.canal.connector.mq.MqMode;
import dev.canal.connector.mq.MqWorkers;
import dev.canal.connector.mq.TestRows;
import dev.canal.instance.TestInstance;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.position.LogPosition;
import dev.canal.server.CanalServer;
import dev.canal.server.EmbeddedCanalServer;
import dev.canal.store.StoreConfig;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.Function;

/**
 * One measured round of an MQ mode, whatever the broker: a writer thread puts pre-built transactions into a real
 * memory store (Canal's defaults: MEMSIZE, 16384 slots), the broker's workers pull them with Canal's defaults
 * (canalBatchSize 50, canalGetTimeout 100 ms) and the clock stops when the last transaction's END is acked, i.e.
 * after the broker acknowledged every message. Each transaction inserts {@code rowsPerTx} rows of a 4-column table
 * (int key, varchar, text, decimal), one row per entry.
 */
public final class MqThroughput {

    private MqThroughput() {
    }

    /**
     * A broker bench's rounds, printed as rows per second: flat messages, then protobuf packets, each {@code rounds}
     * times (the first a warm-up).
     *
     * @param args     rows, rows per transaction, rounds; default 200,000, 10 and 3
     * @param settings the broker's settings for a round's topic
     */
    public static void run(String[] args, MqMode mode, Function<String, Properties> settings)
            throws InterruptedException {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int rowsPerTx = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        List<List<CanalEntry.Entry>> transactions = transactions(rows, rowsPerTx);
        for (String format : List.of("flat", "protobuf")) {
            for (int round = 0; round < rounds; round++) {
                String topic = "bench_" + format + "_" + round;
                Round result = round(topic, format.equals("flat"), transactions, rows,
                        server -> MqWorkers.create(server, mode, settings.apply(topic)));
                System.out.printf("%-8s round %d%s: %s%n", format, round, round == 0 ? " (warm-up)" : "", result);
            }
        }
    }

    /**
     * One round's rate, and the CPU time this JVM (store, worker, broker client; not the broker) spent per row.
     */
    public record Round(double rowsPerSecond, double cpuMicrosPerRow) {

        @Override
        public String toString() {
            return String.format("%,.0f rows/s, %.1f µs CPU/row", rowsPerSecond, cpuMicrosPerRow);
        }
    }

    /**
     * One round into topic {@code destination}. The destination is prepared (for exactly-once workers: its
     * transactional producer claims its cursor) before its instance starts, as the deployer does.
     */
    public static Round round(String destination, boolean flat, List<List<CanalEntry.Entry>> transactions, int rows,
            Function<CanalServer, MqWorkers> workers) throws InterruptedException {
        TestInstance instance = new TestInstance(destination, StoreConfig.defaults().withRaw(!flat));
        EmbeddedCanalServer server = new EmbeddedCanalServer(d -> instance);
        server.start();
        Properties mq = new Properties();
        mq.setProperty(MqConfig.TOPIC.name(), destination);
        mq.setProperty(MqConfig.FLAT_MESSAGE.name(), Boolean.toString(flat));
        List<CanalEntry.Entry> last = transactions.get(transactions.size() - 1);
        long lastEnd = last.get(last.size() - 1).getHeader().getLogfileOffset();
        ClientIdentity client = new ClientIdentity(destination, MqDestinationWorker.CLIENT_ID);
        try (MqWorkers runner = workers.apply(server)) {
            runner.prepare(destination);
            server.start(destination);
            Thread writer = new Thread(() -> transactions.forEach(instance::put), "bench-writer");
            long cpuStart = processCpuNanos();
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
            double cpuMicros = (processCpuNanos() - cpuStart) / 1e3;
            writer.join();
            return new Round(rows / seconds, cpuMicros / rows);
        } finally {
            server.stop();
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** {@code rows} inserts of bench.user, {@code rowsPerTx} to a transaction. */
    public static List<List<CanalEntry.Entry>> transactions(int rows, int rowsPerTx) {
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
