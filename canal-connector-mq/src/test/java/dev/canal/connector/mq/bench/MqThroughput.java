package dev.canal.connector.mq.bench;

import dev.canal.connector.mq.MqConfig;
import dev.canal.connector.mq.MqDestinationWorker;
import dev.canal.connector.mq.MqWorkers;
import dev.canal.connector.mq.TestRows;
import dev.canal.instance.TestInstance;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.position.LogPosition;
import dev.canal.server.CanalServer;
import dev.canal.server.EmbeddedCanalServer;
import dev.canal.store.StoreConfig;
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

    /** Rows per second of one round into topic {@code destination}. */
    public static double round(String destination, boolean flat, List<List<CanalEntry.Entry>> transactions, int rows,
            Function<CanalServer, MqWorkers> workers) throws InterruptedException {
        TestInstance instance = new TestInstance(destination, StoreConfig.defaults().withRaw(!flat));
        EmbeddedCanalServer server = new EmbeddedCanalServer(d -> instance);
        server.start();
        server.start(destination);
        Properties mq = new Properties();
        mq.setProperty(MqConfig.TOPIC.name(), destination);
        mq.setProperty(MqConfig.FLAT_MESSAGE.name(), Boolean.toString(flat));
        List<CanalEntry.Entry> last = transactions.get(transactions.size() - 1);
        long lastEnd = last.get(last.size() - 1).getHeader().getLogfileOffset();
        ClientIdentity client = new ClientIdentity(destination, MqDestinationWorker.CLIENT_ID);
        try (MqWorkers runner = workers.apply(server)) {
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
