package dev.canal.instance;

import dev.canal.meta.MetaManager;
import dev.canal.parse.position.ConsumerCursors;
import dev.canal.parse.position.LogPositionManager;
import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.DestinationNameRule;
import dev.canal.protocol.position.EntryPosition;
import dev.canal.protocol.position.LogPosition;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parser's restart position taken from the clients' acked cursors (Canal's MetaLogPositionManager): the smallest cursor over every subscribed client of the destination and of its named consumers (docs/consumers.md), so a restarted
 * parser re-reads whatever some client has not acked yet. Persisting is a no-op: cursors move only on ack. Also
 * where each consumer stands, its clients' smallest cursor, for the binlog retention watch.
 */
public final class MetaLogPositionManager implements LogPositionManager, ConsumerCursors {

    private static final Logger log = LoggerFactory.getLogger(MetaLogPositionManager.class);

    private final MetaManager metaManager;

    public MetaLogPositionManager(MetaManager metaManager) {
        this.metaManager = Objects.requireNonNull(metaManager, "metaManager");
    }

    @Override
    public LogPosition latest(String destination) {
        LogPosition smallest = null;
        for (String name : metaManager.listSubscribedNames(destination)) { // with its named consumers
            LogPosition cursor = smallestOf(name);
            if (cursor != null && (smallest == null || isBefore(cursor, smallest))) {
                smallest = cursor;
            }
        }
        return smallest;
    }

    /** Consumers whose kept name is not one a client could subscribe with are left out (a hand-edited meta). */
    @Override
    public Map<String, EntryPosition> cursors(String destination) {
        Map<String, EntryPosition> cursors = new TreeMap<>();
        for (String name : metaManager.listSubscribedNames(destination)) {
            LogPosition cursor = smallestOf(name);
            if (cursor != null && DestinationNameRule.isWellFormedSubscription(name)) {
                cursors.put(name, cursor.position());
            }
        }
        return cursors;
    }

    /** The smallest cursor of the clients subscribed with {@code name}; null when none has one. */
    private LogPosition smallestOf(String name) {
        LogPosition smallest = null;
        for (ClientIdentity client : metaManager.listAllSubscribeInfo(name)) {
            LogPosition cursor = metaManager.getCursor(client);
            if (cursor != null && (smallest == null || isBefore(cursor, smallest))) {
                smallest = cursor;
            }
        }
        return smallest;
    }

    @Override
    public void persist(String destination, LogPosition position) {
        // once per flushed transaction: at INFO this line costs more than the transaction (docs/performance.md)
        log.debug("destination {}: parse position {} not persisted, clients' cursors are the restart point",
                destination, position);
    }

    /**
     * Canal's order: positions of the same source compare by journal file and offset; positions of different
     * sources (or without a journal) compare by timestamp.
     */
    private static boolean isBefore(LogPosition a, LogPosition b) {
        EntryPosition pa = a.position();
        EntryPosition pb = b.position();
        boolean sameSource = a.identity() != null && a.identity().sameSourceAs(b.identity());
        if (sameSource && pa.hasJournal() && pb.hasJournal()) {
            return pa.compareJournalTo(pb) < 0;
        }
        return timestamp(pa) < timestamp(pb);
    }

    private static long timestamp(EntryPosition position) {
        return position.timestamp() == null ? Long.MAX_VALUE : position.timestamp();
    }
}
