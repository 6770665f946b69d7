package dev.canal.reliability;

import java.util.Comparator;

/** A place in the source's binlog: journal file and offset (file names sort in binlog order). */
record BinlogPoint(String file, long offset) implements Comparable<BinlogPoint> {

    private static final Comparator<BinlogPoint> ORDER =
            Comparator.comparing(BinlogPoint::file).thenComparingLong(BinlogPoint::offset);

    @Override
    public int compareTo(BinlogPoint other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return file + ":" + offset;
    }
}
