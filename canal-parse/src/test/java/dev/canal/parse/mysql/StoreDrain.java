package dev.canal.parse.mysql;

import static org.awaitility.Awaitility.await;

import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EntryType;
import dev.canal.store.Event;
import dev.canal.store.EventStore;
import dev.canal.store.Events;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** Takes what a parser put into a store, acking as it goes, as a client would. */
public final class StoreDrain {

    private static final int BATCH_SIZE = 100;
    private static final long BATCH_WAIT_MILLIS = 200;

    private StoreDrain() {
    }

    /** The entries taken until {@code enough} holds for all taken so far, within {@code atMost}. */
    public static List<CanalEntry.Entry> until(EventStore store, Duration atMost,
            Predicate<List<CanalEntry.Entry>> enough) {
        List<CanalEntry.Entry> seen = new ArrayList<>();
        await().atMost(atMost).until(() -> {
            Events batch = store.get(BATCH_SIZE, BATCH_WAIT_MILLIS, TimeUnit.MILLISECONDS);
            for (Event e : batch.events()) {
                seen.add(e.parsedEntry());
            }
            if (!batch.events().isEmpty()) {
                store.ack(batch.range().end(), batch.range().endSeq());
            }
            return enough.test(seen);
        });
        return seen;
    }

    /** The entries taken until {@code rowEntries} INSERT/UPDATE/DELETE entries arrived, within 30 s. */
    public static List<CanalEntry.Entry> untilRowEntries(EventStore store, int rowEntries) {
        return until(store, Duration.ofSeconds(30), seen -> rowEntriesOf(seen).size() >= rowEntries);
    }

    /** The INSERT, UPDATE and DELETE entries among {@code entries}, in order. */
    public static List<CanalEntry.Entry> rowEntriesOf(List<CanalEntry.Entry> entries) {
        return entries.stream().filter(e -> e.getEntryType() == EntryType.ROWDATA)
                .filter(e -> switch (e.getHeader().getEventType()) {
                    case INSERT, UPDATE, DELETE -> true;
                    default -> false;
                }).toList();
    }
}
