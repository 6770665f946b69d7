package dev.canal.binlog.event;

import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;
import java.util.UUID;

/**
 * PREVIOUS_GTIDS: number of sids (8), then per sid: uuid (16), [tag (serialized string) in the tagged format],
 * number of intervals (8), intervals (start 8, end 8 exclusive). In the tagged format (MySQL 8.3+) the first
 * and last byte of the count word are 1 and the six bytes between them are the count.
 */
final class PreviousGtidsEventDecoder implements EventDecoder<PreviousGtidsEvent> {

    private static final int TAGGED_FORMAT = 1;
    private static final int MIN_SID_BYTES = 16 + 8;
    private static final int INTERVAL_BYTES = 16;

    @Override
    public PreviousGtidsEvent decode(EventHeader header, LittleEndianCursor c, DecoderContext context) {
        long word = c.int64();
        boolean tagged = (word & 0xFF) == TAGGED_FORMAT && (word >>> 56) == TAGGED_FORMAT;
        long sids = tagged ? (word >>> 8) & 0xFFFF_FFFF_FFFFL : word;
        if (sids < 0 || sids > c.remaining() / MIN_SID_BYTES) {
            throw new MalformedDataException("PREVIOUS_GTIDS with " + sids + " sids does not fit " + c.remaining()
                    + " bytes");
        }
        StringBuilder set = new StringBuilder();
        UUID last = null;
        for (long i = 0; i < sids; i++) {
            UUID sid = GtidEventDecoder.readUuid(c);
            String tag = tagged ? SerializedFields.readString(c) : "";
            long intervals = c.int64();
            if (intervals < 0 || intervals > c.remaining() / INTERVAL_BYTES) {
                throw new MalformedDataException("PREVIOUS_GTIDS sid " + sid + " with " + intervals
                        + " intervals does not fit " + c.remaining() + " bytes");
            }
            if (!sid.equals(last)) {
                if (last != null) {
                    set.append(',');
                }
                set.append(sid);
                last = sid;
            }
            if (!tag.isEmpty()) {
                set.append(':').append(tag);
            }
            for (long k = 0; k < intervals; k++) {
                long start = c.int64();
                long end = c.int64() - 1;
                set.append(':').append(start);
                if (end != start) {
                    set.append('-').append(end);
                }
            }
        }
        return new PreviousGtidsEvent(header, set.toString());
    }
}
