package dev.canal.meta;

import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.position.LogPosition;
import dev.canal.protocol.position.PositionRange;
import java.util.List;
import java.util.Map;

/**
 * Remembers, per destination, which clients subscribed (with their filter), each client's cursor (the
 * position of its last acked entry) and the batches handed out but not yet acked (Canal's
 * CanalMetaManager).
 *
 * <p>Clients are identified by destination and clientId; the filter is carried along but not compared.
 * Methods returning a single value return {@code null} when there is none, as Canal does.
 */
public interface MetaManager {

    void start();

    void stop();

    boolean isStart();

    /**
     * Reads the destination's kept state once without keeping it, ahead of a start, so that the start's own read is
     * quick (a standby server's warm instance, docs/high-availability.md). Nothing by default.
     */
    default void prepare(String destination) {
    }

    /** Records the subscription, replacing an existing one of the same client so that its filter is updated. */
    void subscribe(ClientIdentity client);

    boolean hasSubscribe(ClientIdentity client);

    void unsubscribe(ClientIdentity client);

    /** The subscribed clients of the destination, with their current filters; empty when none. */
    List<ClientIdentity> listAllSubscribeInfo(String destination);

    /**
     * The names under which clients subscribed to a destination: the destination itself when its default consumer
     * subscribed, and {@code destination@consumer} for each named consumer (docs/consumers.md), in name order.
     */
    default List<String> listSubscribedNames(String destination) {
        return listAllSubscribeInfo(destination).isEmpty() ? List.of() : List.of(destination);
    }

    /** The client's acked position, or null when it has acked nothing yet. */
    LogPosition getCursor(ClientIdentity client);

    void updateCursor(ClientIdentity client, LogPosition position);

    /** Records a batch handed to the client and returns its new id (per client: 1, 2, 3, ...). */
    long addBatch(ClientIdentity client, PositionRange range);

    /** Records a batch under an id chosen by the caller; later generated ids are larger than it. */
    void addBatch(ClientIdentity client, PositionRange range, long batchId);

    /** The outstanding batch with this id, or null. */
    PositionRange getBatch(ClientIdentity client, long batchId);

    /**
     * Removes an outstanding batch (on ack or rollback of it) and returns its range.
     *
     * @throws UnknownBatchException when the client has no outstanding batch with this id
     * @throws MetaManagerException when the id is not the smallest outstanding one
     *     ({@code "batchId:%d is not the firstly:%d"})
     */
    PositionRange removeBatch(ClientIdentity client, long batchId);

    /** The outstanding batches by id, in increasing id order. */
    Map<Long, PositionRange> listAllBatchs(ClientIdentity client);

    /** The outstanding batch ids in increasing order. */
    List<Long> listBatchIds(ClientIdentity client);

    /** The outstanding batch with the smallest id, or null. */
    PositionRange getFirstBatch(ClientIdentity client);

    /** The outstanding batch with the largest id, or null. */
    PositionRange getLastestBatch(ClientIdentity client);

    /** Forgets every outstanding batch of the client (rollback of all); ids are not reused afterwards. */
    void clearAllBatchs(ClientIdentity client);
}
