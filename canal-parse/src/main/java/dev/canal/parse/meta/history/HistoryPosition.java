package dev.canal.parse.meta.history;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.canal.protocol.position.EntryPosition;

/**
 * Where a DDL or a snapshot sits in the binlog, with the column names of Canal's {@code meta_history} /
 * {@code meta_snapshot} tables.
 */
public record HistoryPosition(
        @JsonProperty("binlog_file") String file,
        @JsonProperty("binlog_offest") long offset,
        @JsonProperty("binlog_master_id") long serverId,
        @JsonProperty("binlog_timestamp") long timestamp) {

    /**
     * The snapshot taken from the source when no history exists yet: Canal's file "0", offset 0, server -1,
     * timestamp -2. It is before every binlog position.
     */
    public static final HistoryPosition INITIAL = new HistoryPosition("0", 0, -1, -2);

    public static HistoryPosition of(EntryPosition p) {
        return new HistoryPosition(p.journalName(), p.position() == null ? 0 : p.position(),
                p.serverId() == null ? 0 : p.serverId(), p.timestamp() == null ? 0 : p.timestamp());
    }

    @JsonIgnore
    public boolean isInitial() {
        return timestamp == INITIAL.timestamp && offset == INITIAL.offset && INITIAL.file.equals(file);
    }

    /** Duplicate detection key: Canal's unique (destination, binlog_master_id, binlog_file, binlog_offest). */
    @JsonIgnore
    public String key() {
        return serverId + "/" + file + "/" + offset;
    }

    /** Binlog order: the initial snapshot first, then file and offset (file names sort in binlog order). */
    public int compareTo(HistoryPosition other) {
        if (isInitial() || other.isInitial()) {
            return Boolean.compare(!isInitial(), !other.isInitial());
        }
        int byFile = file.compareTo(other.file);
        return byFile != 0 ? byFile : Long.compare(offset, other.offset);
    }

    /**
     * Whether a DDL (or snapshot) at this position is already in effect for a parser starting at {@code start}.
     * The event at the start position itself counts as in effect: when it is a DDL the parser will see again,
     * the schema model skips it as already applied (see SchemaHistoryTableMetaSource#applyDdl). A start without a
     * journal is compared by binlog time, as Canal does; a start with neither sees the whole history.
     */
    public boolean inEffectAt(EntryPosition start) {
        if (isInitial()) {
            return true;
        }
        if (start.hasJournal()) {
            return compareTo(HistoryPosition.of(start)) <= 0;
        }
        if (start.hasTimestamp()) {
            return timestamp <= start.timestamp();
        }
        return true;
    }

    @Override
    public String toString() {
        return file + ":" + offset;
    }
}
