package dev.canal.binlog.event;

import dev.canal.binlog.io.LittleEndianCursor;

/**
 * Decodes the body of one event type. {@code body} starts at the post-header and ends before the checksum.
 * Implementations are stateless; the state they need (the format description, table maps) is in the context.
 */
@FunctionalInterface
public interface EventDecoder<E extends BinlogEvent> {

    E decode(EventHeader header, LittleEndianCursor body, DecoderContext context);
}
