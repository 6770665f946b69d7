package dev.canal.connector.mq;

import java.util.List;
import java.util.Optional;

/**
 * One destination's transactional producer, as opened by {@link MqTransactionalProducer#open}: records are sent
 * into an open transaction, which a commit ends together with the destination's cursor. Used by one thread.
 */
public interface MqTransactionalSession extends AutoCloseable {

    /** The cursor committed last when the session opened, empty when the destination never committed one. */
    Optional<MqCursor> committed();

    /** Sends the records within the open transaction, beginning one when none is open. */
    void send(String context, List<MqRecord> records) throws MqSendException, InterruptedException;

    /**
     * Writes the cursor and commits the open transaction (beginning one when none is open), returning once the broker
     * committed it. When it throws, the outcome is unknown until a new session reads the committed cursor.
     */
    void commit(String context, MqCursor cursor) throws MqSendException, InterruptedException;

    /** Closes the producer; a transaction still open is aborted, at the latest by the next session's open. */
    @Override
    void close();
}
