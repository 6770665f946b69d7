package dev.canal.meta;

import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.position.PositionRange;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** The outstanding batch marks of one client, ordered by id, and the counter that numbers new ones. */
final class ClientBatches {

    private static final long FIRST_BATCH_ID = 1;

    private final ClientIdentity client;
    private final TreeMap<Long, PositionRange> marks = new TreeMap<>(); // guarded by this
    private long nextId = FIRST_BATCH_ID; // guarded by this

    ClientBatches(ClientIdentity client) {
        this.client = client;
    }

    synchronized long add(PositionRange range) {
        long id = nextId++;
        marks.put(id, range);
        return id;
    }

    synchronized void add(PositionRange range, long batchId) {
        marks.put(batchId, range);
        nextId = Math.max(nextId, batchId + 1);
    }

    synchronized PositionRange get(long batchId) {
        return marks.get(batchId);
    }

    synchronized PositionRange remove(long batchId) {
        if (!marks.containsKey(batchId)) {
            throw new UnknownBatchException(client, batchId);
        }
        long first = marks.firstKey();
        if (first != batchId) {
            throw new MetaManagerException(String.format("batchId:%d is not the firstly:%d", batchId, first));
        }
        return marks.remove(batchId);
    }

    synchronized SortedMap<Long, PositionRange> all() {
        return Collections.unmodifiableSortedMap(new TreeMap<>(marks));
    }

    synchronized List<Long> ids() {
        return new ArrayList<>(marks.keySet());
    }

    synchronized PositionRange first() {
        Map.Entry<Long, PositionRange> entry = marks.firstEntry();
        return entry == null ? null : entry.getValue();
    }

    synchronized PositionRange last() {
        Map.Entry<Long, PositionRange> entry = marks.lastEntry();
        return entry == null ? null : entry.getValue();
    }

    synchronized void clear() {
        marks.clear();
    }
}
