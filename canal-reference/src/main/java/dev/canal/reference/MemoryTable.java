package dev.canal.reference;

import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The rows of one of Canal's two schema-history tables kept in memory, with what both tables share: the unique key
 * on (destination, master id, file, offset), whose violation is reported as MySQL words it (Canal ignores such
 * duplicates), ids and creation times stamped on insert, and the two deletes. Its DAO adds the table's own reads.
 *
 * @param <T> the table's row class (Canal's two row classes share these columns but no type)
 */
final class MemoryTable<T> {

    /** How the table reads and stamps a row. */
    record Columns<T>(Function<T, String> destination, Function<T, String> masterId, Function<T, String> file,
            Function<T, Long> offset, Function<T, Long> timestamp, BiConsumer<T, Long> setId,
            BiConsumer<T, Date> setCreated, BiConsumer<T, Date> setModified) {
    }

    private final Columns<T> columns;
    private final List<T> rows = new ArrayList<>(); // guarded by this
    private long nextId = 1; // guarded by this

    MemoryTable(Columns<T> columns) {
        this.columns = columns;
    }

    synchronized Long insert(T row) {
        for (T existing : rows) {
            if (sameKey(existing, row)) {
                throw new IllegalStateException("Duplicate entry '" + columns.file().apply(row) + "-"
                        + columns.offset().apply(row) + "' for key 'binlog_file_offest'");
            }
        }
        long id = nextId++;
        Date now = new Date();
        columns.setId().accept(row, id);
        columns.setCreated().accept(row, now);
        columns.setModified().accept(row, now);
        rows.add(row);
        return id;
    }

    /** The rows as they are now, for a read or an in-place update under this table's lock. */
    synchronized <R> R read(Function<List<T>, R> reading) {
        return reading.apply(rows);
    }

    synchronized Integer deleteByName(String destination) {
        return delete(row -> Objects.equals(columns.destination().apply(row), destination));
    }

    /** Deletes the destination's rows older than the interval; rows at time 0 or below are kept. */
    synchronized Integer deleteByTimestamp(String destination, int intervalSeconds) {
        long before = System.currentTimeMillis() - intervalSeconds * 1000L;
        return delete(row -> Objects.equals(columns.destination().apply(row), destination)
                && columns.timestamp().apply(row) > 0 && columns.timestamp().apply(row) < before);
    }

    private int delete(Predicate<T> which) {
        int before = rows.size();
        rows.removeIf(which);
        return before - rows.size();
    }

    private boolean sameKey(T a, T b) {
        return Objects.equals(columns.destination().apply(a), columns.destination().apply(b))
                && Objects.equals(columns.masterId().apply(a), columns.masterId().apply(b))
                && Objects.equals(columns.file().apply(a), columns.file().apply(b))
                && Objects.equals(columns.offset().apply(a), columns.offset().apply(b));
    }
}
