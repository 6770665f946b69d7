package dev.canal.binlog.event;

import dev.canal.binlog.io.LittleEndianCursor;

/** INCIDENT: incident number (2 bytes), then a message with a one-byte length (absent in some old servers). */
final class IncidentEventDecoder implements EventDecoder<IncidentEvent> {

    @Override
    public IncidentEvent decode(EventHeader header, LittleEndianCursor c, DecoderContext context) {
        int incident = c.uint16();
        String message = c.hasRemaining() ? c.string(c.checkedLength(c.uint8())) : "";
        return new IncidentEvent(header, incident, message);
    }
}
