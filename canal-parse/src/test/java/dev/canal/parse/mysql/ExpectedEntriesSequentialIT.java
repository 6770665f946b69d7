package dev.canal.parse.mysql;

/**
 * {@link ExpectedEntriesIT} with the parallel pipeline off (row decoding on the binlog-order thread): the entries
 * must equal the same hand-checked dumps, byte for byte of their rendering.
 */
class ExpectedEntriesSequentialIT extends ExpectedEntriesIT {

    @Override
    boolean parallel() {
        return false;
    }
}
