package dev.canal.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StoreMemoryShareTest {

    private static final long MIB = 1024 * 1024;

    @Test
    void runningStoresSplitTheTotalButNeverExceedTheirConfiguredBound() {
        StoreMemoryShare share = new StoreMemoryShare(32 * MIB);
        MemoryEventStore a = new MemoryEventStore(StoreConfig.defaults(), share);
        MemoryEventStore b = new MemoryEventStore(StoreConfig.defaults(), share);
        a.start();
        assertThat(a.memoryLimit()).isEqualTo(16 * MIB); // the configured 16384 x 1 KiB, below the total
        b.start();
        assertThat(a.memoryLimit()).isEqualTo(16 * MIB);
        MemoryEventStore c = new MemoryEventStore(StoreConfig.defaults(), share);
        c.start();
        assertThat(a.memoryLimit()).isEqualTo(32 * MIB / 3);
        c.stop();
        b.stop();
        assertThat(a.memoryLimit()).isEqualTo(16 * MIB);
        a.stop();
        assertThat(share.running()).isZero();
    }

    @Test
    void manyStoresKeepAtLeastTheMinimumEach() {
        StoreMemoryShare share = new StoreMemoryShare(8 * MIB);
        for (int i = 0; i < 10; i++) {
            new MemoryEventStore(StoreConfig.defaults(), share).start();
        }
        assertThat(share.limit(16 * MIB)).isEqualTo(StoreMemoryShare.MIN_BYTES);
    }

    @Test
    void itemSizeStoresAreBoundByTheirSlotsAndTakeNoShare() {
        StoreMemoryShare share = new StoreMemoryShare(8 * MIB);
        MemoryEventStore store = new MemoryEventStore(StoreConfig.itemSize(1024), share);
        store.start();
        assertThat(share.running()).isZero();
        store.stop();
        assertThat(share.running()).isZero();
    }

    @Test
    void stoppingTwiceLeavesTheShareOnce() {
        StoreMemoryShare share = new StoreMemoryShare(8 * MIB);
        MemoryEventStore a = new MemoryEventStore(StoreConfig.defaults(), share);
        MemoryEventStore b = new MemoryEventStore(StoreConfig.defaults(), share);
        a.start();
        b.start();
        a.stop();
        a.stop();
        assertThat(share.running()).isEqualTo(1);
    }
}
