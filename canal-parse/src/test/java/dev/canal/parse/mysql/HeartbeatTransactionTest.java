package dev.canal.parse.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.binlog.event.Bytes;
import dev.canal.binlog.event.DecoderContext;
import dev.canal.binlog.event.EventType;
import dev.canal.binlog.event.TestEvents;
import dev.canal.parse.convert.ColumnRenderer;
import dev.canal.parse.convert.EntryConverter;
import dev.canal.parse.convert.GtidTracker;
import dev.canal.protocol.CanalEntry;
import dev.canal.sink.HeartbeatTransaction;
import dev.canal.sink.filter.SinkFilterConfig;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A heartbeat of the idle source becomes an empty transaction marked {@code heartbeat=true} at the last event the
 * stream passed, when the binlog ends right after that event and no transaction is open: a position a client can
 * ack on a source that writes nothing it selects (docs/operations.md, "Quiet sources").
 */
class HeartbeatTransactionTest {

    private static final String FILE = "binlog.000002";
    private static final long LARGE_BYTES_BOUND = 16L * 1024 * 1024;

    private final List<CanalEntry.Entry> delivered = new ArrayList<>();
    private final EntryPipeline pipeline;
    private long offset = 4;

    HeartbeatTransactionTest() {
        DecoderContext context = new DecoderContext();
        EntryConverter converter = new EntryConverter(null, new ColumnRenderer(ZoneOffset.UTC),
                SinkFilterConfig::defaults, context::tableMap, GtidTracker.off(), null);
        pipeline = new EntryPipeline("test", context, converter, delivered::addAll, null, -1, 0, 8,
                LARGE_BYTES_BOUND, new LongAdder());
    }

    @AfterEach
    void close() {
        pipeline.close();
    }

    /** Publishes {@code event} as the next event of the file; returns its start offset. */
    private long next(byte[] event) throws InterruptedException {
        long at = offset;
        offset += event.length;
        setNextPosition(event, offset);
        pipeline.publish(event, FILE);
        return at;
    }

    private void heartbeat(long position) throws InterruptedException {
        byte[] event = TestEvents.event(EventType.HEARTBEAT, FILE.getBytes(StandardCharsets.US_ASCII));
        setNextPosition(event, position);
        pipeline.publish(event, FILE);
    }

    private static void setNextPosition(byte[] event, long next) {
        for (int i = 0; i < 4; i++) {
            event[13 + i] = (byte) (next >>> (8 * i));
        }
    }

    private static byte[] query(String sql) {
        return TestEvents.query("db", sql, new byte[0]);
    }

    private static byte[] xid() {
        return TestEvents.event(EventType.XID, new Bytes().u64(9).toArray());
    }

    private List<CanalEntry.Entry> heartbeatTransactions() {
        return delivered.stream().filter(HeartbeatTransaction::isMarked).toList();
    }

    @Test
    void aHeartbeatRightAfterATransactionEndGivesAHeartbeatTransactionAtThatEnd() throws InterruptedException {
        next(TestEvents.formatDescription("8.0.36", false));
        next(query("BEGIN"));
        long end = next(xid());
        heartbeat(offset);

        assertThat(delivered).extracting(CanalEntry.Entry::getEntryType).containsExactly(
                CanalEntry.EntryType.TRANSACTIONBEGIN, CanalEntry.EntryType.TRANSACTIONEND,
                CanalEntry.EntryType.HEARTBEAT,
                CanalEntry.EntryType.TRANSACTIONBEGIN, CanalEntry.EntryType.TRANSACTIONEND);
        assertThat(heartbeatTransactions()).hasSize(2).allSatisfy(e -> {
            assertThat(e.getHeader().getLogfileName()).isEqualTo(FILE);
            assertThat(e.getHeader().getLogfileOffset()).isEqualTo(end);
            assertThat(e.getHeader().getExecuteTime()).isEqualTo(TestEvents.TIMESTAMP * 1000);
        });
    }

    @Test
    void aHeartbeatAfterEventsNoClientSelectsGivesTheirLastPosition() throws InterruptedException {
        next(TestEvents.formatDescription("8.0.36", false));
        long previousGtids = next(TestEvents.event(EventType.PREVIOUS_GTIDS, new Bytes().u64(0).toArray()));
        heartbeat(offset);

        assertThat(heartbeatTransactions()).extracting(e -> e.getHeader().getLogfileOffset())
                .containsExactly(previousGtids, previousGtids);
    }

    @Test
    void noHeartbeatTransactionInsideATransaction() throws InterruptedException {
        next(TestEvents.formatDescription("8.0.36", false));
        next(query("BEGIN"));
        heartbeat(offset);

        assertThat(heartbeatTransactions()).isEmpty();
    }

    @Test
    void noHeartbeatTransactionWhenTheBinlogEndsElsewhere() throws InterruptedException {
        next(TestEvents.formatDescription("8.0.36", false));
        next(query("BEGIN"));
        next(xid());
        heartbeat(offset + 100); // events the stream did not receive lie between

        assertThat(heartbeatTransactions()).isEmpty();
    }
}
