package dev.canal.parse.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.ByteString;
import dev.canal.parse.convert.ColumnRenderer;
import dev.canal.parse.convert.EntryConverter;
import dev.canal.parse.convert.GtidTracker;
import dev.canal.binlog.event.Bytes;
import dev.canal.binlog.event.DecoderContext;
import dev.canal.binlog.event.EventType;
import dev.canal.binlog.event.TestEvents;
import dev.canal.binlog.io.MalformedDataException;
import dev.canal.protocol.CanalEntry;
import dev.canal.sink.filter.SinkFilterConfig;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The pipeline's ring keeps no event once it has been handed on: an event can be many MiB (an ANNOTATE_ROWS text of
 * a 16 MiB blob row), and a slot is otherwise only overwritten when the ring comes round again.
 */
class EntryPipelineTest {

    private static final int RING = 8;
    private static final long LARGE_BYTES_BOUND = 16L * 1024 * 1024;

    private static final int LARGE = EntryPipeline.LARGE_EVENT_BYTES;

    private final List<CanalEntry.Entry> delivered = new ArrayList<>();
    /** stage 3 hands each event's entries on only with a permit: closed, it stands for a sink that stalls */
    private final Semaphore sink = new Semaphore(Integer.MAX_VALUE);
    private EntryPipeline pipeline;

    private EntryPipeline pipeline(int workers) {
        return pipeline(workers, LARGE_BYTES_BOUND);
    }

    private EntryPipeline pipeline(int workers, long largeBytesBound) {
        return pipeline(workers, largeBytesBound, entries -> {
            sink.acquire();
            delivered.addAll(entries);
        });
    }

    private EntryPipeline pipeline(int workers, long largeBytesBound, EntryPipeline.Output output) {
        DecoderContext context = new DecoderContext();
        EntryConverter converter = new EntryConverter(null, new ColumnRenderer(ZoneOffset.UTC),
                SinkFilterConfig::defaults, context::tableMap, GtidTracker.off(), null);
        pipeline = new EntryPipeline("test", context, converter, output, null, -1, workers, RING, largeBytesBound,
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

    /** An ANNOTATE_ROWS event of {@code length} bytes in all, at {@code offset}. */
    private static byte[] annotate(int length, long offset) {
        byte[] text = new byte[length - TestEvents.event(EventType.MARIA_ANNOTATE_ROWS, new byte[0]).length];
        Arrays.fill(text, (byte) 'x');
        return at(TestEvents.event(EventType.MARIA_ANNOTATE_ROWS, text), offset);
    }

    private static boolean waitsForTheByteBound(Thread reader) {
        return waitsIn(reader, EntryPipeline.class, "awaitRoomFor");
    }

    private static boolean waitsIn(Thread reader, Class<?> type, String method) {
        return Arrays.stream(reader.getStackTrace()).anyMatch(frame -> frame.getClassName().equals(type.getName())
                && frame.getMethodName().equals(method));
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void theReaderWaitsWhileLargeEventsInFlightWouldPassTheByteBound() throws Exception {
        EntryPipeline parallel = pipeline(2, 3L * LARGE);
        sink.drainPermits();
        byte[] first = annotate(2 * LARGE, 200);
        byte[] second = annotate(2 * LARGE, 200 + first.length);
        Thread reader = new Thread(() -> { // the one thread that publishes, as in the parser
            try {
                parallel.publish(at(TestEvents.formatDescription("10.11.6-MariaDB-log", false), 4), "binlog.000001");
                parallel.publish(first, "binlog.000001");
                parallel.publish(second, "binlog.000001");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "test-reader");
        reader.start();

        await().atMost(20, TimeUnit.SECONDS).until(() -> waitsForTheByteBound(reader));
        assertThat(parallel.largeBytesInFlight()).as("only the first large event is in flight").isEqualTo(first.length);

        sink.release(Integer.MAX_VALUE / 2);
        reader.join();
        parallel.drain();
        assertThat(delivered).hasSize(2);
        assertThat(parallel.largeBytesInFlight()).isZero();
        assertThat(parallel.slotsInUse()).isZero();
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aLargeEventIsNotReadWhileTheLastStageHandsEntriesOn() throws Exception {
        EntryPipeline parallel = pipeline(2);
        sink.drainPermits(); // the sink waits, as for room in a full store
        parallel.publish(at(TestEvents.formatDescription("10.11.6-MariaDB-log", false), 4), "binlog.000001");
        parallel.publish(at(TestEvents.event(EventType.XID, new Bytes().u64(1).toArray()), 200), "binlog.000001");
        await().atMost(20, TimeUnit.SECONDS).until(sink::hasQueuedThreads); // stage 3 hands the XID's entry on
        Thread reader = new Thread(() -> parallel.awaitRoomToRead(2 * LARGE), "test-reader");
        reader.start();

        await().atMost(20, TimeUnit.SECONDS).until(() -> waitsForTheByteBound(reader));
        assertThat(parallel.largeBytesInFlight()).as("no large event in flight: the reader waits for the sink")
                .isZero();

        sink.release(Integer.MAX_VALUE / 2);
        reader.join();
        parallel.publish(annotate(2 * LARGE, 300), "binlog.000001");
        parallel.drain();
        assertThat(delivered).hasSize(2);
        assertThat(parallel.largeBytesInFlight()).isZero();
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void anEventLargerThanTheBoundPassesAloneAndSmallEventsPassBehindIt() throws InterruptedException {
        EntryPipeline parallel = pipeline(2, LARGE);
        sink.drainPermits();
        parallel.publish(at(TestEvents.formatDescription("10.11.6-MariaDB-log", false), 4), "binlog.000001");
        byte[] huge = annotate(4 * LARGE, 200);
        parallel.publish(huge, "binlog.000001");
        long offset = 200 + huge.length;
        for (int i = 0; i < RING - 2; i++) { // small events only wait for a slot: stage 3 holds the huge one
            byte[] xid = at(TestEvents.event(EventType.XID, new Bytes().u64(i).toArray()), offset);
            offset += xid.length;
            parallel.publish(xid, "binlog.000001");
        }
        assertThat(parallel.largeBytesInFlight()).isEqualTo(huge.length);

        sink.release(Integer.MAX_VALUE / 2);
        parallel.drain();
        assertThat(delivered).hasSize(1 + RING - 2);
        assertThat(parallel.largeBytesInFlight()).isZero();
    }

    @Test
    void anEventWhoseHandOffFailsReleasesItsBytes() throws InterruptedException {
        EntryPipeline parallel = pipeline(1, LARGE, entries -> {
            throw new IllegalStateException("sink refused");
        });
        parallel.publish(at(TestEvents.formatDescription("10.11.6-MariaDB-log", false), 4), "binlog.000001");
        parallel.publish(annotate(2 * LARGE, 200), "binlog.000001");
        assertThatThrownBy(parallel::drain).hasMessage("sink refused");
        assertThat(parallel.largeBytesInFlight()).isZero();
        assertThat(parallel.slotsInUse()).isZero();
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aReaderBehindAFullRingBlocksUntilTheLastStageFreesASlot() throws Exception {
        EntryPipeline parallel = pipeline(2);
        sink.drainPermits();
        int events = 3 * RING; // the ring holds RING of them while the sink stalls
        Thread reader = new Thread(() -> {
            try {
                parallel.publish(at(TestEvents.formatDescription("10.11.6-MariaDB-log", false), 4), "binlog.000001");
                long offset = 200;
                for (int i = 1; i < events; i++) {
                    byte[] xid = at(TestEvents.event(EventType.XID, new Bytes().u64(i).toArray()), offset);
                    offset += xid.length;
                    parallel.publish(xid, "binlog.000001");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "test-reader");
        reader.start();

        // blocked on a condition the last stage signals, not in Disruptor's claim, which parks 1 ns at a time
        await().atMost(20, TimeUnit.SECONDS).until(() -> waitsIn(reader, FreeSlotWait.class, "await"));
        assertThat(reader.getState()).isEqualTo(Thread.State.TIMED_WAITING);

        sink.release(Integer.MAX_VALUE / 2);
        reader.join();
        parallel.drain();
        assertThat(delivered).hasSize(events - 1); // every XID is an entry; the format description is none
        assertThat(parallel.slotsInUse()).isZero();
    }
}
