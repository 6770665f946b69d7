package dev.canal.parse.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.parse.mysql.StartPositionLocator.BinlogFile;
import dev.canal.parse.mysql.StartPositionLocator.BoundaryScan;
import dev.canal.parse.mysql.StartPositionLocator.Scan;
import dev.canal.binlog.event.Bytes;
import dev.canal.binlog.event.DecoderContext;
import dev.canal.binlog.event.EventType;
import dev.canal.binlog.event.TestEvents;
import dev.canal.binlog.io.MalformedDataException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The start-position scan over a file's events: it finds transaction boundaries from BEGIN and XID alone, and never
 * decodes a rows event or a statement text, which can be many MiB (here: bodies that fail to decode).
 */
class StartPositionLocatorTest {

    private static final String FILE = "binlog.000007";
    private static final byte[] NO_STATUS_VARS = new byte[0];

    /** Events laid out one after another from offset 4, each header's log_pos set to where the next starts. */
    private final List<byte[]> events = new ArrayList<>();
    private final List<Long> starts = new ArrayList<>();
    private long end = 4;

    private int add(byte[] event) {
        long next = end + event.length;
        for (int i = 0; i < 4; i++) {
            event[13 + i] = (byte) (next >>> (8 * i));
        }
        events.add(event);
        starts.add(end);
        end = next;
        return events.size() - 1;
    }

    private static byte[] undecodableRows() {
        return TestEvents.event(EventType.WRITE_ROWS_V2, new byte[] {1, 2, 3}); // table id alone takes 6 bytes
    }

    private Scan scanUntil(long untilOffset) {
        BoundaryScan scan = new BoundaryScan(new BinlogFile(FILE, end), untilOffset, Long.MAX_VALUE);
        for (byte[] event : events) {
            if (!scan.accept(event, FILE)) {
                break;
            }
        }
        return scan.result();
    }

    @Test
    void transactionsAreFoundWithoutDecodingRowsOrStatementTexts() {
        add(TestEvents.formatDescription("10.11.6-MariaDB-log", false));
        add(TestEvents.query("db", "BEGIN", NO_STATUS_VARS));
        add(TestEvents.event(EventType.MARIA_ANNOTATE_ROWS, new Bytes().str("INSERT INTO t VALUES (x'00')").toArray()));
        int firstRows = add(undecodableRows());
        int firstXid = add(TestEvents.event(EventType.XID, new Bytes().u64(11).toArray()));
        int secondBegin = add(TestEvents.query("db", "BEGIN", NO_STATUS_VARS));
        add(TestEvents.event(EventType.ROWS_QUERY, new Bytes().u8(6).str("DELETE").toArray()));
        int secondRows = add(undecodableRows());
        add(TestEvents.event(EventType.XID, new Bytes().u64(12).toArray()));

        DecoderContext context = new DecoderContext();
        context.decode(events.get(0));
        assertThatThrownBy(() -> context.decode(events.get(firstRows))).as("the rows bodies really are undecodable")
                .isInstanceOf(MalformedDataException.class);

        assertThat(scanUntil(starts.get(secondRows))).as("an offset inside the second transaction")
                .isEqualTo(new Scan(starts.get(secondBegin), true, starts.get(secondBegin)));
        assertThat(scanUntil(starts.get(firstXid + 1))).as("the offset right after the first XID")
                .isEqualTo(new Scan(starts.get(secondBegin), false, starts.get(1)));
        assertThat(scanUntil(Long.MAX_VALUE)).as("the whole file").isEqualTo(new Scan(end, false, starts.get(secondBegin)));
    }
}
