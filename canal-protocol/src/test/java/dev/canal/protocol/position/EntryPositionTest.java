package dev.canal.protocol.position;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EntryPositionTest {

    @Test
    void binlogOrderIsFileThenOffset() {
        EntryPosition a = EntryPosition.of("mysql-bin.000001", 900);
        EntryPosition b = EntryPosition.of("mysql-bin.000002", 4);
        EntryPosition c = EntryPosition.of("mysql-bin.000002", 120);
        assertThat(a.compareJournalTo(b)).isNegative();
        assertThat(c.compareJournalTo(b)).isPositive();
        assertThat(b.compareJournalTo(EntryPosition.of("mysql-bin.000002", 4))).isZero();
    }

    @Test
    void partialPositionsSayWhatTheyHold() {
        assertThat(EntryPosition.ofTimestamp(1_700_000_000_000L).hasJournal()).isFalse();
        assertThat(EntryPosition.ofTimestamp(1_700_000_000_000L).hasTimestamp()).isTrue();
        assertThat(EntryPosition.ofGtid("uuid:1-5").hasGtid()).isTrue();
        assertThat(EntryPosition.of("f", 4).hasGtid()).isFalse();
    }
}
