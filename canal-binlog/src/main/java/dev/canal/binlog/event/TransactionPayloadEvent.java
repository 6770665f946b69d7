package dev.canal.binlog.event;

import java.util.List;

/**
 * TRANSACTION_PAYLOAD ({@code binlog_transaction_compression=ON}, MySQL 8.0.20+): a whole transaction's events,
 * compressed. {@code events} are those events, decoded (TABLE_MAPs inside are registered like any other).
 */
public record TransactionPayloadEvent(EventHeader header, int compressionType, long payloadSize,
        long uncompressedSize, List<BinlogEvent> events) implements BinlogEvent {

    public static final int COMPRESSION_ZSTD = 0;
    public static final int COMPRESSION_NONE = 255;
}
