package dev.canal.binlog.event;

import dev.canal.binlog.io.LittleEndianCursor;

/** ROTATE: position (8 bytes) then the next file's name to the end of the body. */
final class RotateEventDecoder implements EventDecoder<RotateEvent> {

    @Override
    public RotateEvent decode(EventHeader header, LittleEndianCursor c, DecoderContext context) {
        long position = c.int64();
        return new RotateEvent(header, position, c.remainingString());
    }
}
