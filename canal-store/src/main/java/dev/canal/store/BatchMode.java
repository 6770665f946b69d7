package dev.canal.store;

/**
 * How a get's batch size is counted (canal-compat.md 4.1/4.2): in events, or in memory units of
 * {@code bufferMemUnit} bytes. MEMSIZE also bounds the bytes held by the store.
 */
public enum BatchMode {
    ITEMSIZE,
    MEMSIZE
}
