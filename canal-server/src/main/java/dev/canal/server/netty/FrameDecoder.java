package dev.canal.server.netty;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;
import java.nio.ByteOrder;

/**
 * Canal's framing (a 4-byte big-endian length before each packet) with two limits: a small one until the
 * connection has authenticated, so that an unauthenticated connection can make the server hold little, and the
 * full one after. A declared length above the limit in force fails the pipeline, which closes the connection.
 */
public final class FrameDecoder extends LengthFieldBasedFrameDecoder {

    private static final int LENGTH_FIELD_OFFSET = 0;

    private final int maxFrameLength;
    private volatile int limit; // raised by whichever thread authenticates the connection

    /**
     * @param unauthenticatedLimit the largest frame accepted before {@link #authenticated()}
     * @param maxFrameLength       the largest frame accepted after it
     */
    public FrameDecoder(int unauthenticatedLimit, int maxFrameLength) {
        super(maxFrameLength, LENGTH_FIELD_OFFSET, Frames.HEADER_LENGTH, 0, Frames.HEADER_LENGTH, true);
        if (unauthenticatedLimit > maxFrameLength) {
            throw new IllegalArgumentException("the limit before authentication (" + unauthenticatedLimit
                    + ") exceeds the one after (" + maxFrameLength + ")");
        }
        this.maxFrameLength = maxFrameLength;
        this.limit = unauthenticatedLimit;
    }

    /** The connection has authenticated: frames up to the full limit are accepted from now on. */
    public void authenticated() {
        limit = maxFrameLength;
    }

    @Override
    protected long getUnadjustedFrameLength(ByteBuf buf, int offset, int length, ByteOrder order) {
        long frameLength = super.getUnadjustedFrameLength(buf, offset, length, order);
        if (frameLength > limit) {
            throw new TooLongFrameException("frame of " + frameLength + " bytes declared, at most " + limit
                    + (limit < maxFrameLength ? " before authentication" : ""));
        }
        return frameLength;
    }
}
