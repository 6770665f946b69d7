package dev.canal.parse.snapshot;

/**
 * Where a destination's snapshot progress is kept, beside its clients' cursors: a file in file mode, a ZooKeeper
 * node in ZooKeeper mode, nowhere in memory mode (docs/snapshots.md, "Resuming").
 */
public interface SnapshotProgressStore {

    /** The progress last saved, null when none. */
    String load();

    void save(String progress);

    /** Keeps the progress in this process only: a restart begins afresh. */
    static SnapshotProgressStore inMemory() {
        return new SnapshotProgressStore() {
            private volatile String saved;

            @Override
            public String load() {
                return saved;
            }

            @Override
            public void save(String progress) {
                saved = progress;
            }
        };
    }
}
