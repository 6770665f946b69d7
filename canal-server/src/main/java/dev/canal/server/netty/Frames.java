package dev.canal.server.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Canal's TCP framing, shared by the client and the admin port: each packet is preceded
 * by its length as a 4-byte big-endian integer ({@link FrameDecoder} splits them).
 */
public final class Frames {

    public static final int HEADER_LENGTH = 4;

    private Frames() {
    }

    /** One whole frame: the length, then the packet's bytes. */
    public static ByteBuf frame(ByteBufAllocator alloc, byte[] packet) {
        return alloc.buffer(HEADER_LENGTH + packet.length).writeInt(packet.length).writeBytes(packet);
    }
}
