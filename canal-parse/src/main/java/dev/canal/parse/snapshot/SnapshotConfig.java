package dev.canal.parse.snapshot;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.TypedProperties;
import java.util.List;
import java.util.Properties;

/**
 * The snapshot settings of one destination (docs/snapshots.md): whether it begins with a copy of its selected
 * tables, where run-time snapshot requests are read from, and how fast tables are read.
 *
 * @param initial          copy every selected table when the destination first starts
 * @param signalTable      {@code schema.table} polled for run-time snapshot requests; null when none
 * @param chunkSize        rows per primary-key chunk (one chunk is held in memory at a time)
 * @param rowsPerSecond    the most rows read per second over a table; 0 for no limit
 * @param signalPollMillis time between two reads of the signal table
 */
public record SnapshotConfig(boolean initial, SnapshotTable signalTable, int chunkSize, int rowsPerSecond,
        long signalPollMillis) {

    public static final ConfigKey MODE = ConfigKey.ours("canal.instance.snapshot.mode", "never",
            "initial: copy the current rows of every selected table when the destination first starts, while the "
                    + "binlog streams (docs/snapshots.md); never: stream changes only, as Canal does.");
    public static final ConfigKey SIGNAL_TABLE = ConfigKey.ours("canal.instance.snapshot.signal.table", "",
            "schema.table on the source whose new rows request snapshots of tables at run time (columns id and "
                    + "tables); empty: no run-time requests.");
    public static final ConfigKey CHUNK_SIZE = ConfigKey.ours("canal.instance.snapshot.chunk.size", "1024",
            "Rows a snapshot reads per primary-key chunk; one chunk is held in memory at a time.").atLeast(1);
    public static final ConfigKey ROWS_PER_SECOND = ConfigKey.ours("canal.instance.snapshot.rows.per.second", "0",
            "The most rows a snapshot reads per second; 0 for no limit.").atLeast(0);
    public static final ConfigKey SIGNAL_POLL = ConfigKey.ours("canal.instance.snapshot.signal.poll.millis", "1000",
            "Milliseconds between two reads of the signal table.").atLeast(1);

    public static final List<ConfigKey> KEYS = List.of(MODE, SIGNAL_TABLE, CHUNK_SIZE, ROWS_PER_SECOND, SIGNAL_POLL);

    /** No initial snapshot and no signal table: the destination streams changes only. */
    public static final SnapshotConfig OFF = new SnapshotConfig(false, null, 1024, 0, 1000);

    /** The values {@code canal.instance.snapshot.mode} takes. */
    public enum Mode { NEVER, INITIAL }

    public static SnapshotConfig fromProperties(Properties properties) {
        TypedProperties p = new TypedProperties(properties);
        String signal = p.string(SIGNAL_TABLE).trim();
        SnapshotTable signalTable = null;
        if (!signal.isEmpty()) {
            try {
                signalTable = SnapshotTable.parse(signal);
            } catch (IllegalArgumentException e) {
                throw TypedProperties.invalid(SIGNAL_TABLE.name(), signal, e.getMessage());
            }
        }
        return new SnapshotConfig(p.enumValue(MODE.name(), Mode.class, Mode.NEVER) == Mode.INITIAL, signalTable, p.integer(CHUNK_SIZE),
                p.integer(ROWS_PER_SECOND), p.longValue(SIGNAL_POLL));
    }

    /** Whether snapshots can happen at all: an initial one, or requests from a signal table. */
    public boolean enabled() {
        return initial || signalTable != null;
    }
}
