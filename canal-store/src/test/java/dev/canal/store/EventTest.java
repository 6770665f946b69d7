package dev.canal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EntryType;
import dev.canal.protocol.CanalEntry.EventType;
import dev.canal.protocol.position.EntryPosition;
import dev.canal.protocol.position.LogPosition;
import org.junit.jupiter.api.Test;

class EventTest {

    @Test
    void rawEventKeepsTheEncodedEntryAndItsFacts() {
        CanalEntry.Entry entry = TestEvents.entry(120, EntryType.ROWDATA, EventType.DELETE, 7);

        Event event = Event.of(TestEvents.SOURCE, entry, true);

        assertThat(event.isRaw()).isTrue();
        assertThat(event.entry()).isNull();
        assertThat(event.rawEntry()).isEqualTo(entry.toByteString());
        assertThat(event.rawLength()).isEqualTo(entry.getSerializedSize());
        assertThat(event.parsedEntry()).isEqualTo(entry);
        assertThat(event.journalName()).isEqualTo(TestEvents.JOURNAL);
        assertThat(event.logfileOffset()).isEqualTo(120);
        assertThat(event.executeTime()).isEqualTo(120_000);
        assertThat(event.serverId()).isEqualTo(1);
        assertThat(event.eventType()).isEqualTo(EventType.DELETE);
        assertThat(event.rowsCount()).isEqualTo(7);
        assertThat(event.gtid()).isEmpty();
    }

    @Test
    void nonRawEventKeepsTheEntryAndEstimatesSixTimesTheEventLength() {
        CanalEntry.Entry entry = TestEvents.entry(4, EntryType.ROWDATA, EventType.INSERT, 1);

        Event event = Event.of(TestEvents.SOURCE, entry, false);

        assertThat(event.isRaw()).isFalse();
        assertThat(event.entry()).isSameAs(entry);
        assertThat(event.rawLength()).isEqualTo(600);
        assertThat(event.rawBytes()).isEqualTo(entry.toByteString());
    }

    @Test
    void rowsCountIsOnlyReadFromRowData() {
        CanalEntry.Entry end = TestEvents.entry(4, EntryType.TRANSACTIONEND, EventType.UPDATE, 3);

        assertThat(Event.of(TestEvents.SOURCE, end, true).rowsCount()).isZero();
    }

    @Test
    void nonNumericRowsCountIsRejectedNamingThePosition() {
        CanalEntry.Entry entry = TestEvents.entry(4, EntryType.ROWDATA, EventType.INSERT, 0).toBuilder()
                .setHeader(TestEvents.entry(4, EntryType.ROWDATA, EventType.INSERT, 0).getHeader().toBuilder()
                        .addProps(CanalEntry.Pair.newBuilder().setKey("rowsCount").setValue("x")))
                .build();

        assertThatThrownBy(() -> Event.of(TestEvents.SOURCE, entry, true))
                .hasMessageContaining("mysql-bin.000001:4");
    }

    @Test
    void positionMatchRequiresTimeAndWhenGivenJournalAndOffset() {
        Event event = TestEvents.row(10);

        assertThat(event.matches(event.toLogPosition(false))).isTrue();
        assertThat(event.matches(at(new EntryPosition(null, null, null, 10L, null, false)))).isTrue();
        assertThat(event.matches(at(EntryPosition.of(TestEvents.JOURNAL, 10, 1, 11)))).isFalse();
        assertThat(event.matches(at(EntryPosition.of(TestEvents.JOURNAL, 11, 1, 10)))).isFalse();
        assertThat(event.matches(at(EntryPosition.of("mysql-bin.000002", 10, 1, 10)))).isFalse();
    }

    @Test
    void ackPointsAreTransactionEndsDdlsAndBeginsWithoutGtid() {
        assertThat(TestEvents.end(1).isAckPoint()).isTrue();
        assertThat(TestEvents.ddl(1).isAckPoint()).isTrue();
        assertThat(TestEvents.begin(1, "").isAckPoint()).isTrue();
        assertThat(TestEvents.begin(1, "uuid:1-5").isAckPoint()).isFalse();
        assertThat(TestEvents.row(1).isAckPoint()).isFalse();
    }

    private static LogPosition at(EntryPosition position) {
        return new LogPosition(TestEvents.SOURCE, position);
    }
}
