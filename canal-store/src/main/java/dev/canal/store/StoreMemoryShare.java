package dev.canal.store;

/**
 * The heap the memory stores of one process may hold together, shared evenly among the stores running: a store
 * in MEMSIZE mode holds at most {@code min(buffer.size × memunit, total / running stores)} bytes of entries, and
 * never less than {@link #MIN_BYTES}.
 *
 * <p>Each store's own bound, 16 MiB with the shipped defaults, is sized for a server with a few destinations:
 * fifty destinations catching up at once would hold 800 MiB in their stores alone, more than the heap
 * {@code bin/startup.sh} gives. With the share, a daemon with few destinations keeps the configured bound and one
 * with many gives each a smaller store; a store above its share when another starts takes no more until its
 * clients have acked below it. A store only waits on its own clients, never on another destination's.
 * docs/performance.md ("Many destinations") has the measurements.
 */
public final class StoreMemoryShare {

    /** The stores' part of the maximum heap: a quarter; the parsers' rings, the batches and the rest need the rest. */
    static final int HEAP_DIVISOR = 4;
    /** The smallest share: room for a client's batch of 1000 memory units of 1 KiB and the parser's next put. */
    static final long MIN_BYTES = 2L * 1024 * 1024;

    private static final StoreMemoryShare PROCESS =
            new StoreMemoryShare(Runtime.getRuntime().maxMemory() / HEAP_DIVISOR);

    private final long totalBytes;
    private int running; // guarded by this

    StoreMemoryShare(long totalBytes) {
        if (totalBytes <= 0) {
            throw new IllegalArgumentException("totalBytes must be positive, got " + totalBytes);
        }
        this.totalBytes = totalBytes;
    }

    /** The share of this process's heap. */
    public static StoreMemoryShare process() {
        return PROCESS;
    }

    synchronized void join() {
        running++;
    }

    synchronized void leave() {
        if (running > 0) {
            running--;
        }
    }

    synchronized int running() {
        return running;
    }

    /** The bytes a store configured for {@code configuredBytes} may hold now. */
    long limit(long configuredBytes) {
        int stores;
        synchronized (this) {
            stores = Math.max(1, running);
        }
        return Math.min(configuredBytes, Math.max(MIN_BYTES, totalBytes / stores));
    }
}
