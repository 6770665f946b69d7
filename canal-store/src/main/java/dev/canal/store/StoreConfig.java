package dev.canal.store;

import dev.canal.protocol.config.TypedProperties;
import java.util.Objects;
import java.util.Properties;

/**
 * The memory store's settings (canal-compat.md 4.1).
 *
 * @param bufferSize    ring capacity in events, a power of 2
 * @param bufferMemUnit bytes per memory unit (MEMSIZE batch sizes and the byte limit)
 * @param batchMode     how get batch sizes are counted
 * @param ddlIsolation  return each DDL in a batch of its own
 * @param raw           keep entries serialized (and ship those bytes to clients)
 */
public record StoreConfig(int bufferSize, int bufferMemUnit, BatchMode batchMode, boolean ddlIsolation,
        boolean raw) {

    public static final String BUFFER_SIZE_KEY = "canal.instance.memory.buffer.size";
    public static final String BUFFER_MEM_UNIT_KEY = "canal.instance.memory.buffer.memunit";
    public static final String BATCH_MODE_KEY = "canal.instance.memory.batch.mode";
    public static final String DDL_ISOLATION_KEY = "canal.instance.get.ddl.isolation";
    public static final String RAW_ENTRY_KEY = "canal.instance.memory.rawEntry";

    public static final int DEFAULT_BUFFER_SIZE = 16384;
    public static final int DEFAULT_BUFFER_MEM_UNIT = 1024;

    public StoreConfig {
        Objects.requireNonNull(batchMode, "batchMode");
        if (bufferSize <= 0 || Integer.bitCount(bufferSize) != 1) {
            throw new IllegalArgumentException("bufferSize must be a power of 2, got " + bufferSize
                    + " (" + BUFFER_SIZE_KEY + ")");
        }
        if (bufferMemUnit <= 0) {
            throw new IllegalArgumentException("bufferMemUnit must be positive, got " + bufferMemUnit
                    + " (" + BUFFER_MEM_UNIT_KEY + ")");
        }
    }

    /** The defaults of Canal's shipped configuration: 16384 events, 1 KiB units, MEMSIZE, raw. */
    public static StoreConfig defaults() {
        return new StoreConfig(DEFAULT_BUFFER_SIZE, DEFAULT_BUFFER_MEM_UNIT, BatchMode.MEMSIZE, false, true);
    }

    public static StoreConfig itemSize(int bufferSize) {
        return new StoreConfig(bufferSize, DEFAULT_BUFFER_MEM_UNIT, BatchMode.ITEMSIZE, false, true);
    }

    /** Reads the keys of canal-compat.md 4.1; absent or blank keys take the shipped defaults. */
    public static StoreConfig fromProperties(Properties properties) {
        TypedProperties p = new TypedProperties(properties);
        return new StoreConfig(
                p.integer(BUFFER_SIZE_KEY, DEFAULT_BUFFER_SIZE),
                p.integer(BUFFER_MEM_UNIT_KEY, DEFAULT_BUFFER_MEM_UNIT),
                p.enumValue(BATCH_MODE_KEY, BatchMode.class, BatchMode.MEMSIZE),
                p.bool(DDL_ISOLATION_KEY, false),
                p.bool(RAW_ENTRY_KEY, true));
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
