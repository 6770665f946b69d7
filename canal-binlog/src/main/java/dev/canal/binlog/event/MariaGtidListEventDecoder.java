package dev.canal.binlog.event;

import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;
import java.util.ArrayList;
import java.util.List;

/** MariaDB GTID_LIST: count (low 28 bits) and flags (high 4 bits), then (domain 4, server 4, sequence 8) each. */
final class MariaGtidListEventDecoder implements EventDecoder<MariaGtidListEvent> {

    private static final int ENTRY_LENGTH = 16;

    @Override
    public MariaGtidListEvent decode(EventHeader header, LittleEndianCursor c, DecoderContext context) {
        long word = c.uint32();
        int count = (int) (word & 0x0FFFFFFF);
        int flags = (int) (word >>> 28);
        if (count > c.remaining() / ENTRY_LENGTH) {
            throw new MalformedDataException("GTID_LIST of " + count + " entries does not fit the " + c.remaining()
                    + " bytes left");
        }
        List<MariaGtidListEvent.MariaGtid> gtids = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            gtids.add(new MariaGtidListEvent.MariaGtid(c.uint32(), c.uint32(), c.int64()));
        }
        return new MariaGtidListEvent(header, flags, List.copyOf(gtids));
    }
}
