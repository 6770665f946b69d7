package dev.canal.server.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Last in the pipeline: any exception that reaches it (a frame too long or with a negative length, bytes
 * that are no packet, a reset connection) closes this connection only.
 */
final class FailureHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(FailureHandler.class);

    private final ChannelSession session;

    FailureHandler(ChannelSession session) {
        this.session = session;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof IOException) {
            log.debug("connection {} failed: {}", ctx.channel(), cause.toString());
        } else {
            log.warn("closing connection {} after bad input: {}", ctx.channel(), cause.toString());
        }
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        session.close();
        ctx.fireChannelInactive();
    }
}
