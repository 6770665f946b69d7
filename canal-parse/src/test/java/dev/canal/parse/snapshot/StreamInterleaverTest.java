package dev.canal.parse.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.parse.meta.ColumnMeta;
import dev.canal.parse.meta.TableMeta;
import dev.canal.protocol.CanalEntry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StreamInterleaverTest {

    private static final TableMeta META = new TableMeta("s", "t", List.of(
            new ColumnMeta("id", "int", "int", true, false, null, 0),
            new ColumnMeta("v", "varchar(10)", "varchar", false, false, StandardCharsets.UTF_8, 0)));

    private final List<CanalEntry.Entry> out = new ArrayList<>();
    private final StreamInterleaver interleaver = new StreamInterleaver();

    @Test
    void aChunkWaitsForTheStreamToPassItsWatermarkThenFollowsTheTransactionEnd() throws Exception {
        interleaver.attach(out::addAll);
        interleaver.track(new SnapshotTable("s", "t"), List.of("id"));
        interleaver.accept(transaction(100, "other", 9));
        CompletableFuture<StreamInterleaver.Emitted> emitted = emitAsync(chunk("1", "2"), 350);
        Thread.sleep(100);
        assertThat(emitted).as("the stream has not reached the watermark").isNotDone();

        interleaver.accept(transaction(300, "other", 8));
        StreamInterleaver.Emitted done = emitted.get(5, TimeUnit.SECONDS);

        assertThat(done.rows()).isEqualTo(2);
        assertThat(done.at().getLogfileOffset()).as("the position of the last transaction end before it")
                .isEqualTo(300 + 40);
        assertThat(snapshotIds()).containsExactly("1", "2");
        assertThat(out.get(out.size() - 1).getHeader().getPropsList())
                .anyMatch(p -> p.getKey().equals("snapshot") && p.getValue().equals("true"));
    }

    @Test
    void rowsTheStreamChangedWhileTheChunkWasReadAreLeftOut() throws Exception {
        interleaver.attach(out::addAll);
        interleaver.track(new SnapshotTable("s", "t"), List.of("id"));
        interleaver.accept(transaction(100, "t", 2)); // a change of row 2 after the chunk's reading began
        interleaver.accept(transaction(300, "t", 5));
        StreamInterleaver.Emitted done = interleaver.emit(chunk("1", "2", "3"), new Watermark("bin.000001", 350));

        assertThat(done.rows()).isEqualTo(2);
        assertThat(done.dropped()).isEqualTo(1);
        assertThat(snapshotIds()).containsExactly("1", "3");
    }

    @Test
    void keysChangedDuringThePreviousChunkAreLeftOutToo() throws Exception {
        interleaver.attach(out::addAll);
        interleaver.track(new SnapshotTable("s", "t"), List.of("id"));
        interleaver.accept(transaction(100, "t", 7));
        interleaver.emit(chunk("1"), new Watermark("bin.000001", 100));
        StreamInterleaver.Emitted second = interleaver.emit(chunk("7", "8"), new Watermark("bin.000001", 100));

        assertThat(second.dropped()).isEqualTo(1);
        assertThat(snapshotIds()).containsExactly("1", "8");
    }

    @Test
    void aWindowEmitsNothingAndItsKeysAreLeftOutOfTheNextChunk() throws Exception {
        interleaver.attach(out::addAll);
        interleaver.track(new SnapshotTable("s", "t"), List.of("id"));
        interleaver.accept(transaction(100, "t", 7));
        int streamed = out.size();
        interleaver.awaitWindow(new Watermark("bin.000001", 100));
        assertThat(out).hasSize(streamed);

        interleaver.accept(transaction(300, "other", 1));
        StreamInterleaver.Emitted first = interleaver.emit(chunk("7", "8"), new Watermark("bin.000001", 300));

        assertThat(first.dropped()).isEqualTo(1);
        assertThat(snapshotIds()).containsExactly("8");
    }

    @Test
    void noChunkGoesInsideATransaction() throws Exception {
        interleaver.attach(out::addAll);
        interleaver.accept(transaction(100, "other", 1));
        interleaver.accept(List.of(begin(200)));
        CompletableFuture<StreamInterleaver.Emitted> emitted = emitAsync(chunk("1"), 150);
        Thread.sleep(100);
        assertThat(emitted).isNotDone();

        interleaver.accept(List.of(end(260)));
        emitted.get(5, TimeUnit.SECONDS);
        assertThat(out.get(4).getEntryType()).isEqualTo(CanalEntry.EntryType.TRANSACTIONEND);
        assertThat(out.get(5).getEntryType()).as("the chunk follows the end").isEqualTo(CanalEntry.EntryType.TRANSACTIONBEGIN);
        assertThat(out.get(5).getHeader().getLogfileOffset()).isEqualTo(260);
    }

    private CompletableFuture<StreamInterleaver.Emitted> emitAsync(StreamInterleaver.SnapshotChunk chunk, long high) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return interleaver.emit(chunk, new Watermark("bin.000001", high));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static StreamInterleaver.SnapshotChunk chunk(String... ids) {
        List<CanalEntry.RowData> rows = new ArrayList<>();
        for (String id : ids) {
            rows.add(CanalEntry.RowData.newBuilder()
                    .addAfterColumns(CanalEntry.Column.newBuilder().setIndex(0).setName("id").setValue(id))
                    .addAfterColumns(CanalEntry.Column.newBuilder().setIndex(1).setName("v").setValue("v" + id))
                    .build());
        }
        return new StreamInterleaver.SnapshotChunk(META, rows,
                rows.stream().map(row -> new PrimaryKey(List.of(row.getAfterColumns(0).getValue()))).toList());
    }

    private List<String> snapshotIds() throws Exception {
        List<String> ids = new ArrayList<>();
        for (CanalEntry.Entry e : out) {
            boolean snapshot = e.getHeader().getPropsList().stream().anyMatch(p -> p.getKey().equals("snapshot"));
            if (snapshot && e.getEntryType() == CanalEntry.EntryType.ROWDATA) {
                for (CanalEntry.RowData row : CanalEntry.RowChange.parseFrom(e.getStoreValue()).getRowDatasList()) {
                    ids.add(row.getAfterColumns(0).getValue());
                }
            }
        }
        return ids;
    }

    /** begin at {@code offset}, an update of row {@code id} of {@code table}, end 40 bytes later. */
    private static List<CanalEntry.Entry> transaction(long offset, String table, int id) {
        CanalEntry.RowChange change = CanalEntry.RowChange.newBuilder().setEventType(CanalEntry.EventType.UPDATE)
                .addRowDatas(CanalEntry.RowData.newBuilder()
                        .addBeforeColumns(CanalEntry.Column.newBuilder().setName("id").setValue(Integer.toString(id)))
                        .addAfterColumns(CanalEntry.Column.newBuilder().setName("id").setValue(Integer.toString(id))))
                .build();
        CanalEntry.Entry row = CanalEntry.Entry.newBuilder().setEntryType(CanalEntry.EntryType.ROWDATA)
                .setHeader(header(offset + 20, 20).setSchemaName("s").setTableName(table)
                        .setEventType(CanalEntry.EventType.UPDATE))
                .setStoreValue(change.toByteString()).build();
        return List.of(begin(offset), row, end(offset + 40));
    }

    private static CanalEntry.Entry begin(long offset) {
        return CanalEntry.Entry.newBuilder().setEntryType(CanalEntry.EntryType.TRANSACTIONBEGIN)
                .setHeader(header(offset, 20)).build();
    }

    private static CanalEntry.Entry end(long offset) {
        return CanalEntry.Entry.newBuilder().setEntryType(CanalEntry.EntryType.TRANSACTIONEND)
                .setHeader(header(offset, 30)).build();
    }

    private static CanalEntry.Header.Builder header(long offset, int length) {
        return CanalEntry.Header.newBuilder().setLogfileName("bin.000001").setLogfileOffset(offset)
                .setEventLength(length).setServerId(1);
    }
}
