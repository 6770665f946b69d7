package dev.canal.server;

import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.Message;
import dev.canal.protocol.position.LogPosition;
import dev.canal.protocol.position.PositionRange;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The server side of Canal's client API (Canal's CanalServer plus CanalService): instances by
 * destination, and subscribe / get / ack / rollback for clients identified by destination and clientId
 *. Every failure a client can cause is a {@link CanalServerException} whose message
 * is Canal's text.
 */
public interface CanalServer {

    void start();

    /** Stops every running instance. */
    void stop();

    boolean isStart();

    /** Creates the destination's instance if needed and starts it unless it runs already. */
    void start(String destination);

    /** Stops the destination's instance and forgets it; nothing happens for an unknown destination. */
    void stop(String destination);

    /** Whether the destination's instance exists and runs. */
    boolean isStart(String destination);

    void subscribe(ClientIdentity client);

    void unsubscribe(ClientIdentity client);

    /** Takes what is available now, up to {@code batchSize}, without acking it. */
    Message getWithoutAck(ClientIdentity client, int batchSize);

    /**
     * Takes the next batch without acking it. A {@code timeout} of null or -1 takes what is there now,
     * another value of zero or below waits until enough is there, a positive one waits up to that long
     * and then takes what is there.
     */
    Message getWithoutAck(ClientIdentity client, int batchSize, Long timeout, TimeUnit unit);

    /** As {@link #getWithoutAck(ClientIdentity, int)} but acks the batch at once; fails while batches are unacked. */
    Message get(ClientIdentity client, int batchSize);

    Message get(ClientIdentity client, int batchSize, Long timeout, TimeUnit unit);

    /** Acks the client's smallest outstanding batch, which must be {@code batchId}. */
    void ack(ClientIdentity client, long batchId);

    /** Forgets every outstanding batch of the client so that their entries are handed out again. */
    void rollback(ClientIdentity client);

    /** Forgets the client's smallest outstanding batch, which must be {@code batchId}, and rewinds the store. */
    void rollback(ClientIdentity client, long batchId);

    /** The client's outstanding batch ids in increasing order. */
    List<Long> listBatchIds(ClientIdentity client);

    /**
     * The positions of one of the client's outstanding batches: first and last entry and the ack point its ack
     * moves the cursor to.
     *
     * @throws CanalServerException when the client has no outstanding batch with this id
     */
    PositionRange batchRange(ClientIdentity client, long batchId);

    /**
     * Subscribes the client with {@code cursor} as its acked position before the destination's instance starts,
     * so that the parser begins there: MQ mode's cursor committed with the broker (docs/mq.md).
     *
     * @throws IllegalStateException when the destination's instance runs already
     */
    void seedCursor(ClientIdentity client, LogPosition cursor);

    /**
     * Before the destinations are handed over to another server: hands out no batch of them any more (until each
     * starts here again) and waits up to {@code wait} for their clients to ack what they hold.
     *
     * @return the destinations whose clients still held batches when the wait ended
     */
    Set<String> quiesce(Collection<String> destinations, Duration wait);

    /**
     * This server is about to tell the official client of {@code subscription} (a destination or {@code
     * destination@consumer}) and {@code clientId} to connect to it, after taking the destination over: the client's
     * gets find nothing until it rolls back on connecting (docs/high-availability.md, "Stopping a server").
     */
    void expectReconnect(String subscription, short clientId);
}
