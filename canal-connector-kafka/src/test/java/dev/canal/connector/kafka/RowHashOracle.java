package dev.canal.connector.kafka;

/** The expected partition of a key, written out from Canal's partition rules independently of the main code. */
final class RowHashOracle {

    private RowHashOracle() {
    }

    /** databaseHash on, one hash column: h = schema.hashCode() ^ value.hashCode(); abs(abs(h) % n). */
    static int partition(String schema, String keyValue, int partitions) {
        int h = schema.hashCode() ^ keyValue.hashCode();
        return Math.abs(Math.abs(h) % partitions);
    }
}
