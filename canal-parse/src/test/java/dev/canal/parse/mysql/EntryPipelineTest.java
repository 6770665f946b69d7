package dev.canal.parse.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.canal.parse.convert.ColumnRenderer;
import dev.canal.parse.convert.EntryConverter;
import dev.canal.parse.convert.GtidTracker;
import dev.canal.parse.mysql.event.Bytes;
import dev.canal.parse.mysql.event.DecoderContext;
import dev.canal.parse.mysql.event.EventType;
import dev.canal.parse.mysql.event.TestEvents;
import dev.canal.parse.mysql.io.MalformedDataException;
import dev.canal.protocol.CanalEntry;
import dev.canal.sink.filter.SinkFilterConfig;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The pipeline's ring keeps no event once it has been handed on: an event can be many MiB (an ANNOTATE_ROWS text of
 * a 16 MiB blob row), and a slot is otherwise only overwritten when the ring comes round again.
 */
class EntryPipelineTest {

    private static final int RING = 8;

    private final List<CanalEntry.Entry> delivered = new ArrayList<>();
    private EntryPipeline pipeline;

    private EntryPipeline pipeline(int workers) {
        DecoderContext context = new DecoderContext();
        EntryConverter converter = new EntryConverter(null, new ColumnRenderer(ZoneOffset.UTC),
                SinkFilterConfig::defaults, context::tableMap, GtidTracker.off(), null);
        pipeline = new EntryPipeline("test", context, converter, delivered::addAll, null, -1, workers, RING,
                new LongAdder());
        return pipeline;
    }

    @AfterEach
    void close() {
        if (pipeline != null) {
            pipeline.close();
        }
    }

    private static byte[] at(byte[] event, long offset) {
        long next = offset + event.length;
        for (int i = 0; i < 4; i++) {
            event[13 + i] = (byte) (next >>> (8 * i));
        }
        return event;
    }

    private static void publishTransaction(EntryPipeline pipeline) throws InterruptedException {
        pipeline.publish(at(TestEvents.formatDescription("10.11.6-MariaDB-log", false), 4), "binlog.000001");
        pipeline.publish(at(TestEvents.query("db", "BEGIN", new byte[0]), 200), "binlog.000001");
        pipeline.publish(at(TestEvents.event(EventType.MARIA_ANNOTATE_ROWS,
                new Bytes().str("INSERT INTO t VALUES ('" + "x".repeat(100_000) + "')").toArray()), 300),
                "binlog.000001");
        pipeline.publish(at(TestEvents.event(EventType.XID, new Bytes().u64(9).toArray()), 100_500), "binlog.000001");
    }

    @Test
    void aDeliveredEventLeavesNoReferenceInTheRing() throws InterruptedException {
        EntryPipeline parallel = pipeline(2);
        publishTransaction(parallel);
        parallel.drain();
        assertThat(delivered).extracting(CanalEntry.Entry::getEntryType).containsExactly(
                CanalEntry.EntryType.TRANSACTIONBEGIN, CanalEntry.EntryType.ROWDATA, CanalEntry.EntryType.TRANSACTIONEND);
        assertThat(parallel.slotsInUse()).isZero();
    }

    @Test
    void theInlinePipelineKeepsNoEventEither() throws InterruptedException {
        EntryPipeline inline = pipeline(0);
        publishTransaction(inline);
        assertThat(delivered).hasSize(3);
        assertThat(inline.slotsInUse()).isZero();
    }

    @Test
    void statementTextsBecomeTheQueryEntriesTheirDecodedTextWouldGive() throws InterruptedException {
        EntryPipeline inline = pipeline(0);
        byte[] invalid = new Bytes().str("INSERT INTO t VALUES (_binary'").bytes(0xFF, 0xC3, 0x28, 0xE9, 0xED, 0xA0, 0x80)
                .str("', '\u00e9\u4e2d\ud83d\ude00')").toArray();
        byte[] valid = "INSERT INTO t VALUES ('\u00e9\u4e2d\ud83d\ude00')".getBytes(StandardCharsets.UTF_8);
        inline.publish(at(TestEvents.formatDescription("10.11.6-MariaDB-log", false), 4), "binlog.000001");
        inline.publish(at(TestEvents.event(EventType.MARIA_ANNOTATE_ROWS, invalid), 200), "binlog.000001");
        inline.publish(at(TestEvents.event(EventType.MARIA_ANNOTATE_ROWS, valid), 400), "binlog.000001");
        inline.publish(at(TestEvents.event(EventType.ROWS_QUERY, new Bytes().u8(valid.length).bytes(valid).toArray()),
                600), "binlog.000001");
        assertThat(delivered).extracting(CanalEntry.Entry::getStoreValue).containsExactly(viaString(invalid),
                viaString(valid), viaString(valid));
    }

    /** The QUERY entry's RowChange as it was built from the text decoded into a String. */
    private static ByteString viaString(byte[] text) {
        return CanalEntry.RowChange.newBuilder().setEventType(CanalEntry.EventType.QUERY)
                .setSql(new String(text, StandardCharsets.UTF_8)).build().toByteString();
    }

    @Test
    void anEventThatFailsToDecodeIsLetGoOfToo() throws InterruptedException {
        EntryPipeline parallel = pipeline(1);
        parallel.publish(at(TestEvents.formatDescription("8.0.36", false), 4), "binlog.000001");
        parallel.publish(at(TestEvents.event(EventType.WRITE_ROWS_V2, new byte[] {1, 2, 3}), 200), "binlog.000001");
        assertThatThrownBy(parallel::drain).isInstanceOf(MalformedDataException.class);
        assertThat(parallel.slotsInUse()).isZero();
    }
}
