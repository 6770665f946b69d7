package dev.canal.binlog.event;

import dev.canal.binlog.io.LittleEndianCursor;

/**
 * HEARTBEAT: the body is the current log file name, the position is the header's {@code log_pos}.
 * HEARTBEAT_V2 (MySQL 8.0.26+): fields of (type, length, value), type 1 the file name, 2 the position.
 */
final class HeartbeatEventDecoder implements EventDecoder<HeartbeatEvent> {

    private static final int V2_END_MARK = 0;
    private static final int V2_LOG_FILENAME = 1;
    private static final int V2_LOG_POSITION = 2;

    @Override
    public HeartbeatEvent decode(EventHeader header, LittleEndianCursor c, DecoderContext context) {
        if (header.type() == EventType.HEARTBEAT) {
            return new HeartbeatEvent(header, c.remainingString(), header.nextPosition(), false);
        }
        String file = "";
        long position = header.nextPosition();
        while (c.hasRemaining()) {
            long field = c.lengthEncodedInt();
            if (field == V2_END_MARK) {
                break;
            }
            int length = c.checkedLength(c.lengthEncodedInt());
            if (field == V2_LOG_FILENAME) {
                file = c.string(length);
            } else if (field == V2_LOG_POSITION) {
                int end = c.position() + length;
                position = c.lengthEncodedInt();
                c.position(end);
            } else {
                c.skip(length);
            }
        }
        return new HeartbeatEvent(header, file, position, true);
    }
}
