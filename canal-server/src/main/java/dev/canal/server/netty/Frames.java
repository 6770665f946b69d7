package dev.canal.server.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;

/**
 * Canal's TCP framing, shared by the client and the admin port: each packet is preceded
 * by its length as a 4-byte big-endian integer.
 */
public final class Frames {

    public static final int HEADER_LENGTH = 4;
    private static final int LENGTH_FIELD_OFFSET = 0;

    private Frames() {
    }

    /** Splits the byte stream into packets; a declared length above {@code maxFrameLength} fails the pipeline. */
    public static LengthFieldBasedFrameDecoder decoder(int maxFrameLength) {
        return new LengthFieldBasedFrameDecoder(maxFrameLength, LENGTH_FIELD_OFFSET, HEADER_LENGTH, 0, HEADER_LENGTH,
                true);
    }

    /** One whole frame: the length, then the packet's bytes. */
    public static ByteBuf frame(ByteBufAllocator alloc, byte[] packet) {
        return alloc.buffer(HEADER_LENGTH + packet.length).writeInt(packet.length).writeBytes(packet);
    }
}
