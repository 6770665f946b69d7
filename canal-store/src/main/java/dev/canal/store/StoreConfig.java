package dev.canal.store;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.TypedProperties;
import java.util.List;
import java.util.Objects;
import java.util.Properties;

/**
 * The memory store's settings, Canal's {@code canal.instance.memory.*} keys (docs/configuration.md).
 *
 * @param bufferSize    ring capacity in events, a power of 2
 * @param bufferMemUnit bytes per memory unit (MEMSIZE batch sizes and the byte limit)
 * @param batchMode     how get batch sizes are counted
 * @param ddlIsolation  return each DDL in a batch of its own
 * @param raw           keep entries serialized (and ship those bytes to clients)
 */
public record StoreConfig(int bufferSize, int bufferMemUnit, BatchMode batchMode, boolean ddlIsolation,
        boolean raw) {

    public static final ConfigKey BUFFER_SIZE = ConfigKey.canal("canal.instance.memory.buffer.size", "16384",
            "Capacity of the store's ring in entries, a power of 2. A full ring blocks the parser until clients ack.")
            .powerOfTwo();
    public static final ConfigKey BUFFER_MEM_UNIT = ConfigKey.canal("canal.instance.memory.buffer.memunit", "1024",
            "Bytes per memory unit: in MEMSIZE mode a get's batch size counts these units, and the store holds at most "
                    + "buffer.size × memunit bytes.").atLeast(1);
    public static final ConfigKey BATCH_MODE = ConfigKey.canal("canal.instance.memory.batch.mode", "MEMSIZE",
            "How a get's batch size is counted: MEMSIZE (in memory units of the entries' bytes) or ITEMSIZE (in entries).");
    public static final ConfigKey DDL_ISOLATION = ConfigKey.canal("canal.instance.get.ddl.isolation", "false",
            "Return each DDL entry in a batch of its own.");
    public static final ConfigKey RAW_ENTRY = ConfigKey.canal("canal.instance.memory.rawEntry", "true",
            "Keep entries serialized in the store and send those bytes to clients as they are.");

    public static final List<ConfigKey> KEYS = List.of(BUFFER_SIZE, BUFFER_MEM_UNIT, BATCH_MODE, DDL_ISOLATION,
            RAW_ENTRY);

    public static final int DEFAULT_BUFFER_MEM_UNIT = Integer.parseInt(BUFFER_MEM_UNIT.defaultValue());

    public StoreConfig {
        Objects.requireNonNull(batchMode, "batchMode");
        // the ring relies on these however the record is built
        BUFFER_SIZE.check(Integer.toString(bufferSize));
        BUFFER_MEM_UNIT.check(Integer.toString(bufferMemUnit));
    }

    /** Every key at its declared default. */
    public static StoreConfig defaults() {
        return fromProperties(new Properties());
    }

    public static StoreConfig itemSize(int bufferSize) {
        return new StoreConfig(bufferSize, DEFAULT_BUFFER_MEM_UNIT, BatchMode.ITEMSIZE, false, true);
    }

    /** Reads {@link #KEYS}; absent or blank keys take their declared defaults. */
    public static StoreConfig fromProperties(Properties properties) {
        TypedProperties p = new TypedProperties(properties);
        return new StoreConfig(
                p.integer(BUFFER_SIZE),
                p.integer(BUFFER_MEM_UNIT),
                p.enumValue(BATCH_MODE, BatchMode.class),
                p.bool(DDL_ISOLATION),
                p.bool(RAW_ENTRY));
    }

    public StoreConfig withBatchMode(BatchMode mode) {
        return new StoreConfig(bufferSize, bufferMemUnit, mode, ddlIsolation, raw);
    }

    public StoreConfig withDdlIsolation(boolean isolation) {
        return new StoreConfig(bufferSize, bufferMemUnit, batchMode, isolation, raw);
    }

    public StoreConfig withRaw(boolean rawEntries) {
        return new StoreConfig(bufferSize, bufferMemUnit, batchMode, ddlIsolation, rawEntries);
    }

    public StoreConfig withBufferMemUnit(int memUnit) {
        return new StoreConfig(bufferSize, memUnit, batchMode, ddlIsolation, raw);
    }

    /** The MEMSIZE byte limit: {@code bufferSize × bufferMemUnit}. */
    public long memoryLimit() {
        return (long) bufferSize * bufferMemUnit;
    }
}
