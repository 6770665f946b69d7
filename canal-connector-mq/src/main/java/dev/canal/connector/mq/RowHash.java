package dev.canal.connector.mq;

/** Canal's partition arithmetic. */
final class RowHash {

    private RowHash() {
    }

    /** The seed of a row hash: the schema name's hash when {@code canal.mq.database.hash} is on. */
    static int seed(String schema, boolean databaseHash) {
        return databaseHash ? schema.hashCode() : 0;
    }

    /** {@code abs(abs(h) % n)}: the outer abs maps {@code Integer.MIN_VALUE} to a fixed partition too. */
    static int partition(int hash, int partitions) {
        return Math.abs(Math.abs(hash) % partitions);
    }

    static int tablePartition(String table, int partitions) {
        return partition(table.hashCode(), partitions);
    }
}
