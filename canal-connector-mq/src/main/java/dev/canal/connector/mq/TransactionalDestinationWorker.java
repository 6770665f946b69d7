package dev.canal.connector.mq;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.Message;
import dev.canal.protocol.position.LogPosition;
import dev.canal.protocol.position.PositionRange;
import dev.canal.server.CanalServer;
import dev.canal.store.Event;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exactly once (docs/mq.md): batches go into one open broker transaction, which is committed together with the
 * destination's cursor when a batch ends on a transaction boundary (or the store has nothing more for now); only then
 * are the batches acked, which mirrors the cursor into the meta manager.
 *
 * <p>The cursor is the last ack point committed plus the count of entries committed after it ({@link MqCursor}), so
 * that a transaction larger than the store can be committed in parts: the parser restarts after the ack point and
 * the first {@code skip} entries it produces again are dropped here, unsent. The same lets a long stream commit
 * every {@value #COMMIT_ENTRIES} entries or so, at the first batch with an ack point after that, whether or not the
 * batch ends on it; but never with snapshot entries after the ack point, as a snapshot chunk read again after a
 * restart need not hold the same rows (docs/snapshots.md).
 *
 * <p>When a send or commit fails, the session is closed and a new one opened, which fences every other producer of
 * the destination and reads the cursor committed last: the failed commit's own token there means it went through
 * (its batches are acked); the token committed before means it did not (the batches are rolled back and sent again);
 * any other token means another server committed since, and this worker stops, as its server no longer holds the
 * destination.
 */
public final class TransactionalDestinationWorker extends MqDestinationWorker {

    private static final Logger log = LoggerFactory.getLogger(TransactionalDestinationWorker.class);

    /** Where the store's stream stands after a rollback: what it resumes from and what is left to skip then. */
    private record Rewind(LogPosition position, long counted, long toSkip) {
    }

    /** Entries after which a transaction is committed at the next batch holding an ack point. */
    static final int COMMIT_ENTRIES = 1024;

    private final MqTransactionalProducer producer;
    // the rest: worker thread only
    private MqTransactionalSession session; // null while none is open
    private MqCursor committed;
    private Rewind rewind;
    private final List<Long> pendingBatches = new ArrayList<>();
    private LogPosition pendingPosition;
    private long pendingCount;
    private long pendingEntries;
    private long toSkip;
    private int failures;

    /**
     * @param session   the destination's session, opened before its instance started
     * @param committed the cursor the session committed when it opened, where the parser was started
     */
    public TransactionalDestinationWorker(CanalServer server, String destination, MqConfig config,
            BatchEncoder encoder, MqTransactionalProducer producer, MqTransactionalSession session,
            MqCursor committed) {
        super(server, destination, config, encoder);
        this.producer = Objects.requireNonNull(producer, "producer");
        this.session = Objects.requireNonNull(session, "session");
        this.committed = Objects.requireNonNull(committed, "committed");
        this.rewind = new Rewind(committed.position(), 0, committed.skip());
        rollBackPending();
    }

    @Override
    protected void pump() throws InterruptedException {
        Message batch = take();
        if (batch.isEmpty()) {
            if (pendingBatches.isEmpty()) {
                pause(IDLE_MS);
            } else {
                commitPending(); // the store has nothing more now: what was taken may wait no longer
            }
            return;
        }
        pendingBatches.add(batch.id());
        boolean commitNow;
        try {
            commitNow = count(batch);
            session.send(context(batch.id()), encoder.encode(unskipped(batch)));
        } catch (MqSendException | RuntimeException e) {
            recover(null, e);
            return;
        }
        if (commitNow) {
            commitPending();
        }
    }

    @Override
    protected void finish() {
        if (!pendingBatches.isEmpty()) {
            rollbackAll();
        }
        if (session != null) {
            session.close();
            session = null;
        }
    }

    /**
     * Moves the pending cursor over the batch: to the batch's ack point and the entries after it, or on by the whole
     * batch when it has none.
     *
     * @return whether the transaction may be committed after this batch: it ends on an ack point, or the transaction
     *     is long and only binlog entries follow the batch's ack point
     */
    private boolean count(Message batch) {
        PositionRange range = server.batchRange(client, batch.id());
        int trailing = 0;
        boolean snapshotAfterAckPoint = false;
        for (int i = batch.size() - 1; i >= 0; i--) {
            CanalEntry.Entry entry = entry(batch, i);
            if (Event.isAckPoint(entry)) {
                break;
            }
            trailing++;
            snapshotAfterAckPoint |= FlatMessageBuilder.isSnapshot(entry.getHeader());
        }
        pendingEntries += batch.size();
        if (range.hasAckPoint()) {
            pendingPosition = range.ack();
            pendingCount = trailing;
        } else {
            pendingCount += batch.size();
        }
        return trailing == 0 || (range.hasAckPoint() && !snapshotAfterAckPoint && pendingEntries >= COMMIT_ENTRIES);
    }

    /** The batch without the entries a restarted parser produced again after they had been committed. */
    private Message unskipped(Message batch) {
        int n = (int) Math.min(toSkip, batch.size());
        if (n == 0) {
            return batch;
        }
        toSkip -= n;
        return batch.raw() ? Message.ofRawEntries(batch.id(), batch.rawEntries().subList(n, batch.size()))
                : Message.ofEntries(batch.id(), batch.entries().subList(n, batch.size()));
    }

    private void commitPending() throws InterruptedException {
        MqCursor cursor = MqCursor.at(pendingPosition, pendingCount);
        try {
            session.commit(context(pendingBatches.get(pendingBatches.size() - 1)), cursor);
        } catch (MqSendException | RuntimeException e) {
            recover(cursor, e);
            return;
        }
        committedAndAck(cursor);
    }

    private void committedAndAck(MqCursor cursor) {
        committed = cursor;
        rewind = new Rewind(cursor.position(), cursor.skip(), toSkip);
        List<Long> batches = List.copyOf(pendingBatches);
        pendingBatches.clear();
        pendingEntries = 0;
        for (long batchId : batches) {
            server.ack(client, batchId); // moves the meta manager's cursor to the committed one
        }
        if (failures > 0) {
            log.info("destination {}: committed at {} after {} failed attempt(s)", client.destination(), cursor,
                    failures);
        }
        failures = 0;
        resetBackoff();
    }

    /**
     * After a failed send or commit: a new session tells whether {@code attempted} (null when none was) was
     * committed, and the batches are acked or rolled back accordingly; another server's commit stops this worker.
     */
    private void recover(MqCursor attempted, Exception failure) throws InterruptedException {
        failures++;
        log.warn("destination {}: {} batch(es) not delivered, attempt {} failed: {}; reopening the transactional "
                + "producer", client.destination(), pendingBatches.size(), failures, describe(failure));
        session.close();
        session = null;
        while (session == null) {
            pause(nextBackoff());
            if (!running()) {
                return; // finish() rolls back; whoever runs the destination next reads the committed cursor
            }
            try {
                session = producer.open(client.destination());
            } catch (MqSendException | RuntimeException e) {
                log.warn("destination {}: cannot reopen the transactional producer: {}", client.destination(),
                        describe(e));
            }
        }
        String now = session.committed().map(MqCursor::token).orElse(null);
        if (attempted != null && attempted.token().equals(now)) {
            log.info("destination {}: the commit at {} went through", client.destination(), attempted);
            committedAndAck(attempted);
        } else if (committed.token().equals(now)) {
            rollbackAll();
            rollBackPending();
        } else {
            log.error("destination {}: another server committed to this destination since this one did (cursor {}); "
                    + "it holds the destination now, and this server's MQ worker stops", client.destination(),
                    session.committed().map(MqCursor::toString).orElse("none"));
            rollbackAll();
            stop();
        }
    }

    /** The pending transaction forgotten: the store hands out again what follows the last ack. */
    private void rollBackPending() {
        pendingBatches.clear();
        pendingEntries = 0;
        pendingPosition = rewind.position();
        pendingCount = rewind.counted();
        toSkip = rewind.toSkip();
    }

    private void rollbackAll() {
        try {
            server.rollback(client);
        } catch (RuntimeException e) {
            // the instance is going away: its outstanding batches die with it and are re-read from the cursor
            log.warn("destination {}: rollback failed: {}", client.destination(), e.getMessage());
        }
        pendingBatches.clear();
    }

    private static CanalEntry.Entry entry(Message batch, int i) {
        if (!batch.raw()) {
            return batch.entries().get(i);
        }
        try {
            return CanalEntry.Entry.parseFrom(batch.rawEntries().get(i));
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("batch " + batch.id() + " holds bytes that are not an entry", e);
        }
    }
}
