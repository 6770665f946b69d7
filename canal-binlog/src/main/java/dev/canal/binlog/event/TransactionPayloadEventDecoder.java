package dev.canal.binlog.event;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdException;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * TRANSACTION_PAYLOAD: header fields of (type, length, value), all length-encoded: 1 payload size, 2 compression
 * type (0 zstd, 255 none), 3 uncompressed size, 0 end of header; then the payload, which holds whole events
 * without checksums. Those events are decoded here, through the context, so TABLE_MAPs inside register.
 */
final class TransactionPayloadEventDecoder implements EventDecoder<TransactionPayloadEvent> {

    private static final int FIELD_END = 0;
    private static final int FIELD_PAYLOAD_SIZE = 1;
    private static final int FIELD_COMPRESSION_TYPE = 2;
    private static final int FIELD_UNCOMPRESSED_SIZE = 3;
    /** Up to this size the declared uncompressed size is trusted for a one-shot decompression. */
    private static final int ONE_SHOT_LIMIT = 16 << 20;
    /** MySQL caps a transaction payload at 1 GiB (binlog_transaction_compression limit). */
    private static final long MAX_UNCOMPRESSED = 1L << 30;

    @Override
    public TransactionPayloadEvent decode(EventHeader header, LittleEndianCursor c, DecoderContext context) {
        long payloadSize = -1;
        int compression = TransactionPayloadEvent.COMPRESSION_ZSTD;
        long uncompressedSize = -1;
        while (c.hasRemaining()) {
            long field = c.lengthEncodedInt();
            if (field == FIELD_END) {
                break;
            }
            int length = c.checkedLength(c.lengthEncodedInt());
            int end = c.position() + length;
            switch ((int) field) {
                case FIELD_PAYLOAD_SIZE -> payloadSize = c.lengthEncodedInt();
                case FIELD_COMPRESSION_TYPE -> compression = (int) c.lengthEncodedInt();
                case FIELD_UNCOMPRESSED_SIZE -> uncompressedSize = c.lengthEncodedInt();
                default -> {
                    // a field of a newer server: skipped by its length
                }
            }
            c.position(end);
        }
        if (payloadSize < 0 || payloadSize != c.remaining()) {
            throw new MalformedDataException("TRANSACTION_PAYLOAD declares " + payloadSize + " payload bytes but has "
                    + c.remaining());
        }
        byte[] inner;
        if (compression == TransactionPayloadEvent.COMPRESSION_NONE) {
            inner = c.remainingBytes();
        } else if (compression == TransactionPayloadEvent.COMPRESSION_ZSTD) {
            inner = zstd(c, uncompressedSize);
        } else {
            throw new MalformedDataException("TRANSACTION_PAYLOAD compression type " + compression + " is unknown");
        }
        return new TransactionPayloadEvent(header, compression, payloadSize, uncompressedSize,
                innerEvents(inner, context));
    }

    private static byte[] zstd(LittleEndianCursor c, long size) {
        if (size < 0 || size > MAX_UNCOMPRESSED) {
            throw new MalformedDataException("TRANSACTION_PAYLOAD uncompressed size " + size + " is out of range");
        }
        byte[] src = c.array();
        int offset = c.position();
        int length = c.remaining();
        c.skip(length);
        try {
            if (size <= ONE_SHOT_LIMIT) {
                byte[] out = new byte[(int) size];
                long n = Zstd.decompressByteArray(out, 0, out.length, src, offset, length);
                if (n != size) {
                    throw new MalformedDataException("TRANSACTION_PAYLOAD inflated to " + n + " bytes, declared " + size);
                }
                return out;
            }
            // Large: grow with the real output instead of trusting the declared size with one allocation.
            try (ZstdInputStreamNoFinalizer in = new ZstdInputStreamNoFinalizer(
                    new ByteArrayInputStream(src, offset, length))) {
                byte[] out = new byte[ONE_SHOT_LIMIT];
                int n = 0;
                while (true) {
                    if (n == out.length) {
                        if (n >= size) {
                            break;
                        }
                        out = Arrays.copyOf(out, (int) Math.min(size, (long) n * 2));
                    }
                    int got = in.read(out, n, out.length - n);
                    if (got < 0) {
                        break;
                    }
                    n += got;
                }
                if (n != size || in.read() >= 0) {
                    throw new MalformedDataException("TRANSACTION_PAYLOAD does not inflate to its declared " + size
                            + " bytes");
                }
                return out;
            }
        } catch (ZstdException | IOException e) {
            throw new MalformedDataException("TRANSACTION_PAYLOAD: corrupt zstd data: " + e.getMessage(), e);
        }
    }

    private static List<BinlogEvent> innerEvents(byte[] inner, DecoderContext context) {
        List<BinlogEvent> events = new ArrayList<>();
        int pos = 0;
        while (pos < inner.length) {
            if (inner.length - pos < EventHeader.V4_LENGTH) {
                throw new MalformedDataException("TRANSACTION_PAYLOAD: truncated event header at payload offset " + pos);
            }
            long length = new LittleEndianCursor(inner, pos + 9, 4).uint32();
            if (length < EventHeader.V4_LENGTH || length > inner.length - pos) {
                throw new MalformedDataException("TRANSACTION_PAYLOAD: event of " + length + " bytes at payload offset "
                        + pos + " does not fit the " + (inner.length - pos) + " bytes left");
            }
            try {
                events.add(context.decodeWithoutChecksum(inner, pos, (int) length));
            } catch (MalformedDataException e) {
                throw new MalformedDataException("TRANSACTION_PAYLOAD: event at payload offset " + pos + ": "
                        + e.getMessage(), e);
            }
            pos += (int) length;
        }
        return List.copyOf(events);
    }
}
