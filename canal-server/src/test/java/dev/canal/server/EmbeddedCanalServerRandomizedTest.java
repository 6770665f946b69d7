package dev.canal.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.instance.TestInstance;
import dev.canal.meta.MemoryMetaManager;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.Message;
import dev.canal.store.StoreConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * Random interleavings of put, get, ack and rollback against a small store (so the ring wraps and fills),
 * checked against a model: batches continue exactly after the last entry handed out, a rollback rewinds to
 * the last acked entry, and in the end every entry has been acked once, in binlog order (at least once,
 * never lost, never reordered).
 */
class EmbeddedCanalServerRandomizedTest {

    private static final String DESTINATION = "example";
    private static final ClientIdentity CLIENT = new ClientIdentity(DESTINATION, (short) 1001);
    private static final int ENTRIES = 1500;

    @Test
    void randomOperationsDeliverEveryEntryInOrderAtLeastOnce() {
        long seed = System.nanoTime();
        System.out.println("EmbeddedCanalServerRandomizedTest seed=" + seed);
        Random random = new Random(seed);
        TestInstance instance = new TestInstance(DESTINATION, StoreConfig.itemSize(16), new MemoryMetaManager());
        EmbeddedCanalServer server = new EmbeddedCanalServer(destination -> instance);
        server.start();
        server.start(DESTINATION);
        server.subscribe(CLIENT);
        try {
            Model model = new Model();
            long nextToPut = 1;
            for (int step = 0; model.lastAcked < ENTRIES; step++) {
                if (nextToPut <= ENTRIES && random.nextInt(3) == 0) {
                    CanalEntry.Entry entry = TestEntries.entry(nextToPut, CanalEntry.EntryType.ROWDATA,
                            CanalEntry.EventType.INSERT);
                    if (instance.getEventStore().tryPut(List.of(
                            dev.canal.store.Event.of(TestEntries.SOURCE, entry, true)))) {
                        nextToPut++;
                    }
                    continue;
                }
                switch (random.nextInt(10)) {
                    case 0, 1, 2, 3 -> model.got(server.getWithoutAck(CLIENT, 1 + random.nextInt(6)), seed, step);
                    case 4, 5, 6 -> {
                        if (!model.outstanding.isEmpty()) {
                            long id = model.outstanding.keySet().iterator().next();
                            server.ack(CLIENT, id);
                            model.acked(id, seed, step);
                        }
                    }
                    case 7 -> {
                        server.rollback(CLIENT);
                        model.rolledBack();
                    }
                    default -> {
                        if (model.outstanding.size() == 1) {
                            server.rollback(CLIENT, model.outstanding.keySet().iterator().next());
                            model.rolledBack();
                        }
                    }
                }
                assertThat(server.listBatchIds(CLIENT)).as("seed %d step %d", seed, step)
                        .containsExactlyElementsOf(model.outstanding.keySet());
            }
            assertThat(model.ackedOffsets).as("seed %d", seed)
                    .containsExactlyElementsOf(LongStream.rangeClosed(1, ENTRIES).boxed().toList());
        } finally {
            server.stop();
        }
    }

    /** What the client should see: outstanding batches in id order, the last entry handed out and acked. */
    private static final class Model {
        final Map<Long, List<Long>> outstanding = new LinkedHashMap<>();
        final List<Long> ackedOffsets = new ArrayList<>();
        long lastHandedOut;
        long lastAcked;

        void got(Message message, long seed, int step) {
            if (message.isEmpty()) {
                assertThat(message.id()).isEqualTo(-1);
                return;
            }
            List<Long> offsets = message.rawEntries().stream().map(TestEntries::offsetOf).toList();
            assertThat(offsets).as("seed %d step %d: a batch continues after the last entry handed out", seed, step)
                    .containsExactlyElementsOf(LongStream.rangeClosed(lastHandedOut + 1, lastHandedOut + offsets.size())
                            .boxed().toList());
            lastHandedOut += offsets.size();
            outstanding.put(message.id(), offsets);
        }

        void acked(long id, long seed, int step) {
            List<Long> offsets = outstanding.remove(id);
            assertThat(offsets.get(0)).as("seed %d step %d: acks follow each other", seed, step)
                    .isEqualTo(lastAcked + 1);
            ackedOffsets.addAll(offsets);
            lastAcked = offsets.get(offsets.size() - 1);
        }

        void rolledBack() {
            outstanding.clear();
            lastHandedOut = lastAcked;
        }
    }
}
