package dev.canal.binlog.gtid;

import java.util.Arrays;

/**
 * The transaction numbers of one source (uuid, tag) in a MySQL GTID set: sorted, disjoint, non-adjacent closed
 * intervals {@code [start, end]}. Adding the next number of the last interval (the usual case while streaming) is
 * O(1) without allocation. Not thread-safe.
 */
final class GnoIntervals {

    private long[] starts = new long[2];
    private long[] ends = new long[2];
    private int size;

    int size() {
        return size;
    }

    long start(int i) {
        return starts[i];
    }

    long end(int i) {
        return ends[i];
    }

    boolean contains(long gno) {
        int i = indexOfLastStartAtMost(gno);
        return i >= 0 && gno <= ends[i];
    }

    void add(long gno) {
        add(gno, gno);
    }

    /** Adds the closed interval {@code [start, end]}, merging it with overlapping or adjacent ones. */
    void add(long start, long end) {
        if (start < 1 || end < start) {
            throw new IllegalArgumentException("bad GTID interval " + start + "-" + end);
        }
        if (size > 0 && start >= starts[size - 1] && start <= ends[size - 1] + 1) {
            ends[size - 1] = Math.max(ends[size - 1], end); // fast path: extends the last interval
            return;
        }
        if (size == 0 || start > ends[size - 1] + 1) {
            append(start, end);
            return;
        }
        // general case: rebuild around the merged interval
        long[] newStarts = new long[size + 1];
        long[] newEnds = new long[size + 1];
        int n = 0;
        long s = start;
        long e = end;
        boolean placed = false;
        for (int i = 0; i < size; i++) {
            if (ends[i] + 1 < s) {
                newStarts[n] = starts[i];
                newEnds[n++] = ends[i];
            } else if (starts[i] > e + 1) {
                if (!placed) {
                    newStarts[n] = s;
                    newEnds[n++] = e;
                    placed = true;
                }
                newStarts[n] = starts[i];
                newEnds[n++] = ends[i];
            } else {
                s = Math.min(s, starts[i]);
                e = Math.max(e, ends[i]);
            }
        }
        if (!placed) {
            newStarts[n] = s;
            newEnds[n++] = e;
        }
        starts = newStarts;
        ends = newEnds;
        size = n;
    }

    GnoIntervals copy() {
        GnoIntervals c = new GnoIntervals();
        c.starts = Arrays.copyOf(starts, Math.max(2, size));
        c.ends = Arrays.copyOf(ends, Math.max(2, size));
        c.size = size;
        return c;
    }

    void appendText(StringBuilder sb) {
        for (int i = 0; i < size; i++) {
            sb.append(':').append(starts[i]);
            if (ends[i] != starts[i]) {
                sb.append('-').append(ends[i]);
            }
        }
    }

    private void append(long start, long end) {
        if (size == starts.length) {
            starts = Arrays.copyOf(starts, size * 2);
            ends = Arrays.copyOf(ends, size * 2);
        }
        starts[size] = start;
        ends[size++] = end;
    }

    private int indexOfLastStartAtMost(long gno) {
        int lo = 0;
        int hi = size - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (starts[mid] <= gno) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof GnoIntervals other) || other.size != size) {
            return false;
        }
        return Arrays.equals(starts, 0, size, other.starts, 0, size) && Arrays.equals(ends, 0, size, other.ends, 0, size);
    }

    @Override
    public int hashCode() {
        int h = size;
        for (int i = 0; i < size; i++) {
            h = 31 * h + Long.hashCode(starts[i]);
            h = 31 * h + Long.hashCode(ends[i]);
        }
        return h;
    }
}
