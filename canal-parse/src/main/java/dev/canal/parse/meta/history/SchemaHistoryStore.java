package dev.canal.parse.meta.history;

import java.util.List;
import java.util.function.Predicate;

/**
 * Where one destination's schema history is kept: the applied DDL ({@code meta_history}) and the snapshots of the
 * whole schema model ({@code meta_snapshot}). {@link JsonLinesHistoryStore} keeps them in local files (the
 * single-server default); {@link JdbcHistoryStore} in Canal's tables in a MySQL-compatible database that every
 * server of a cluster shares, so the one that takes a destination over has its history.
 *
 * <p>Reads return what the store holds at the time of the call, so a server reads the history another server
 * wrote before it took over. Used by one {@link SchemaHistoryTableMetaSource} at a time.
 */
public interface SchemaHistoryStore extends AutoCloseable {

    /** Every DDL recorded for the destination, in binlog order of recording. */
    List<DdlRecord> history();

    boolean contains(HistoryPosition position);

    /** Records a DDL unless one at the same position is recorded (Canal's duplicate key rule); false if it was. */
    boolean append(DdlRecord ddl);

    /** Every snapshot kept for the destination. */
    List<SchemaSnapshot> snapshots();

    /** Stores a snapshot, replacing one at the same position. */
    void addSnapshot(SchemaSnapshot snapshot);

    /** Deletes the snapshots matching {@code expired}; returns how many went. */
    int removeSnapshots(Predicate<SchemaSnapshot> expired);

    /** Where the history is, for log lines and errors (never a password). */
    String describe();

    @Override
    void close();
}
