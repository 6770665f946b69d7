package dev.canal.parse.snapshot;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.TypedProperties;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * The snapshot settings of one destination (docs/snapshots.md): whether it begins with a copy of its selected
 * tables or copies them again when the source purged its position, where run-time snapshot requests are read from,
 * and how fast tables are read.
 *
 * @param mode             when the selected tables are copied without a request
 * @param signalTable      {@code schema.table} polled for run-time snapshot requests; null when none
 * @param chunkSize        rows per primary-key chunk (one chunk is held in memory at a time)
 * @param rowsPerSecond    the most rows read per second over a table; 0 for no limit
 * @param signalPollMillis time between two reads of the signal table
 */
public record SnapshotConfig(Mode mode, SnapshotTable signalTable, int chunkSize, int rowsPerSecond,
        long signalPollMillis) {

    public static final ConfigKey MODE = ConfigKey.ours("canal.instance.snapshot.mode", "never",
            "initial: copy the current rows of every selected table when the destination first starts, while the "
                    + "binlog streams (docs/snapshots.md); when_needed: copy them when the destination starts with no "
                    + "acknowledged position, and again, each after a TRUNCATE entry, when the source purged the "
                    + "binlog or GTIDs its position needs, reading on from the source's current position "
                    + "(docs/operations.md); never: stream changes only, and stop with an alarm at a purged position, "
                    + "as Canal does.")
            .oneOf("never", "initial", "when_needed");
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
    public static final SnapshotConfig OFF = new SnapshotConfig(Mode.NEVER, null, 1024, 0, 1000);

    /** The values {@code canal.instance.snapshot.mode} takes. */
    public enum Mode { NEVER, INITIAL, WHEN_NEEDED }

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
        return new SnapshotConfig(Mode.valueOf(p.string(MODE).trim().toUpperCase(Locale.ROOT)), signalTable, p.integer(CHUNK_SIZE),
                p.integer(ROWS_PER_SECOND), p.longValue(SIGNAL_POLL));
    }

    /**
     * Whether the selected tables are copied at this start, when none was requested before: always in mode
     * {@code initial}, and in mode {@code when_needed} when no client acknowledged a position yet.
     */
    boolean copiesAtFirstStart(boolean hasCursor) {
        return mode == Mode.INITIAL || mode == Mode.WHEN_NEEDED && !hasCursor;
    }

    /** Whether a position the source purged is recovered by copying the selected tables again. */
    public boolean recoversPurgedPosition() {
        return mode == Mode.WHEN_NEEDED;
    }

    /** Whether snapshots can happen at all: by the mode, or by requests from a signal table. */
    public boolean enabled() {
        return mode != Mode.NEVER || signalTable != null;
    }
}
