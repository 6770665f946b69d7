package dev.canal.bench;

import java.util.List;

/**
 * An order-independent checksum over row changes: the sum of one 64-bit hash per row (table, type, key, every
 * value as text) and the row count. Two runs that delivered the same multiset of rows give the same digest, in
 * whatever order and batching they arrived; a missing, extra, duplicated or altered row changes it.
 *
 * <p>Not thread-safe: one digest per consuming thread.
 */
public final class RowDigest {

    /** The text a NULL value hashes as; no column of the workload holds it as a value. */
    public static final String NULL = "\u0000NULL";

    private long sum;
    private long rows;

    /** Adds one row; {@code before} or {@code after} is null when the change type has no such image. */
    public void add(String table, String type, String key, List<String> before, List<String> after) {
        long h = mix(hash(table) * 31 + hash(type));
        h = mix(h ^ hash(key));
        h = mix(h ^ hashAll(before));
        h = mix(h ^ Long.rotateLeft(hashAll(after), 17));
        sum += h;
        rows++;
    }

    public void addAll(RowDigest other) {
        sum += other.sum;
        rows += other.rows;
    }

    public long rows() {
        return rows;
    }

    /** The digest as text: row count and hash sum. */
    public String value() {
        return rows + ":" + Long.toHexString(sum);
    }

    private static long hashAll(List<String> values) {
        if (values == null) {
            return 0x5bd1e995L;
        }
        long h = values.size();
        for (String v : values) {
            h = mix(h * 0x100000001B3L ^ hash(v));
        }
        return h;
    }

    private static long hash(String s) {
        return (long) s.hashCode() << 32 ^ s.length();
    }

    /** The finaliser of SplitMix64: spreads every input bit over the whole word. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
