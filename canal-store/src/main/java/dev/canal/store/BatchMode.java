package dev.canal.store;

/**
 * How a get's batch size is counted: in events, or in memory units of
 * {@code bufferMemUnit} bytes. MEMSIZE also bounds the bytes held by the store.
 */
public enum BatchMode {
    ITEMSIZE,
    MEMSIZE
}
