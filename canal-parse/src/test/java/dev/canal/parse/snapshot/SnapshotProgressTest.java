package dev.canal.parse.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.protocol.position.EntryPosition;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class SnapshotProgressTest {

    @Test
    void progressSurvivesItsTextForm() {
        SnapshotProgress p = new SnapshotProgress();
        p.lastSignalId(7);
        p.initialRequested(true);
        p.request(new SnapshotTable("s", "a"));
        p.request(new SnapshotTable("s", "b"));
        p.tables().get(0).mark(new PrimaryKey(List.of("x,y", "back\\slash")), new Watermark("bin.000002", 120));
        p.tables().get(1).doneAt = new Watermark("bin.000003", 4);

        SnapshotProgress back = SnapshotProgress.decode(p.encode());

        assertThat(back.lastSignalId()).isEqualTo(7);
        assertThat(back.initialRequested()).isTrue();
        assertThat(back.tables()).extracting(t -> t.table.toString()).containsExactly("s.a", "s.b");
        assertThat(back.tables().get(0).resumeKey().values()).containsExactly("x,y", "back\\slash");
        assertThat(back.tables().get(1).doneAt).isEqualTo(new Watermark("bin.000003", 4));
    }

    @Test
    void aRestartResumesAfterTheLastChunkBeforeTheAcknowledgedCursor() {
        SnapshotProgress p = new SnapshotProgress();
        p.request(new SnapshotTable("s", "a"));
        p.tables().get(0).mark(key("100"), new Watermark("bin.000001", 500));
        p.tables().get(0).mark(key("200"), new Watermark("bin.000001", 900));
        p.tables().get(0).mark(key("300"), new Watermark("bin.000002", 50));

        p.resumeAt(EntryPosition.of("bin.000001", 900));

        assertThat(p.next().resumeKey()).as("the chunk at the cursor itself may not have been acknowledged")
                .isEqualTo(key("100"));
    }

    @Test
    void aCompletionBeforeTheCursorDropsTheTableAndOneAfterItIsUndone() {
        SnapshotProgress p = new SnapshotProgress();
        p.request(new SnapshotTable("s", "a"));
        p.request(new SnapshotTable("s", "b"));
        p.tables().get(0).doneAt = new Watermark("bin.000001", 100);
        p.tables().get(1).mark(key("5"), new Watermark("bin.000001", 150));
        p.tables().get(1).doneAt = new Watermark("bin.000001", 300);

        p.resumeAt(EntryPosition.of("bin.000001", 200));

        assertThat(p.tables()).extracting(t -> t.table.table()).containsExactly("b");
        assertThat(p.next().resumeKey()).isEqualTo(key("5"));
    }

    @Test
    void withoutAnAcknowledgedCursorEveryTableStartsAgain() {
        SnapshotProgress p = new SnapshotProgress();
        p.request(new SnapshotTable("s", "a"));
        p.tables().get(0).mark(key("5"), new Watermark("bin.000001", 150));

        p.resumeAt(null);

        assertThat(p.next().resumeKey()).isNull();
    }

    @Test
    void aRecoveryReplacesTheQueueWithResetCopiesWhoseResetIsDueUntilAChunkIsAcknowledged() {
        SnapshotProgress p = new SnapshotProgress();
        p.request(new SnapshotTable("s", "old"));
        p.recover(List.of(new SnapshotTable("s", "a"), new SnapshotTable("s", "b")));
        p.tables().get(0).mark(key("5"), new Watermark("bin.000001", 150));

        SnapshotProgress back = SnapshotProgress.decode(p.encode());

        assertThat(back.initialRequested()).isTrue();
        assertThat(back.tables()).extracting(t -> t.table.table()).containsExactly("a", "b");
        assertThat(back.tables()).allMatch(t -> t.reset);
        assertThat(back.tables().get(1).resetDue()).isTrue();
        back.resumeAt(EntryPosition.of("bin.000001", 200));
        assertThat(back.tables().get(0).resetDue()).as("its first chunk, behind its reset, was acknowledged").isFalse();
        back.resumeAt(EntryPosition.of("bin.000001", 100));
        assertThat(back.tables().get(0).resetDue()).isTrue();
    }

    @Test
    void progressOfAnotherFormIsRejectedNamingWhatIsMissing() {
        assertThatThrownBy(() -> SnapshotProgress.decode("tables=1\n")).hasMessageContaining("signal.last");
    }

    @Test
    void configRejectsABadSignalTableNamingTheKey() {
        Properties p = new Properties();
        p.setProperty(SnapshotConfig.SIGNAL_TABLE.name(), "no_schema");
        assertThatThrownBy(() -> SnapshotConfig.fromProperties(p))
                .hasMessageContaining(SnapshotConfig.SIGNAL_TABLE.name());
        p.setProperty(SnapshotConfig.SIGNAL_TABLE.name(), "");
        p.setProperty(SnapshotConfig.CHUNK_SIZE.name(), "0");
        assertThatThrownBy(() -> SnapshotConfig.fromProperties(p)).hasMessageContaining(SnapshotConfig.CHUNK_SIZE.name());
    }

    @Test
    void modeInitialEnablesSnapshotsAndNeverIsTheDefault() {
        Properties p = new Properties();
        assertThat(SnapshotConfig.fromProperties(p).enabled()).isFalse();
        assertThat(SnapshotConfig.fromProperties(p).recoversPurgedPosition()).isFalse();
        p.setProperty(SnapshotConfig.MODE.name(), "initial");
        assertThat(SnapshotConfig.fromProperties(p).copiesAtFirstStart(true)).isTrue();
        assertThat(SnapshotConfig.fromProperties(p).recoversPurgedPosition()).isFalse();
    }

    @Test
    void modeWhenNeededCopiesWithoutACursorAndRecoversPurgedPositions() {
        Properties p = new Properties();
        p.setProperty(SnapshotConfig.MODE.name(), "When_Needed");
        SnapshotConfig config = SnapshotConfig.fromProperties(p);
        assertThat(config.enabled()).isTrue();
        assertThat(config.recoversPurgedPosition()).isTrue();
        assertThat(config.copiesAtFirstStart(false)).isTrue();
        assertThat(config.copiesAtFirstStart(true)).isFalse();
        p.setProperty(SnapshotConfig.MODE.name(), "sometimes");
        assertThatThrownBy(() -> SnapshotConfig.fromProperties(p)).hasMessageContaining(SnapshotConfig.MODE.name());
    }

    private static PrimaryKey key(String value) {
        return new PrimaryKey(List.of(value));
    }
}
