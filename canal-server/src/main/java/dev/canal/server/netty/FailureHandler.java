package dev.canal.server.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Last in the pipeline: any exception that reaches it (a frame too long or with a negative length, bytes
 * that are no packet, a reset connection) closes this connection only. Bad input is warned about at most once per
 * interval of the shared {@link WarningRate}, with a count, so a flood of it cannot flood the log.
 */
final class FailureHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(FailureHandler.class);

    private final ChannelSession session;
    private final WarningRate badInput;

    FailureHandler(ChannelSession session, WarningRate badInput) {
        this.session = session;
        this.badInput = badInput;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof IOException) {
            log.debug("connection {} failed: {}", ctx.channel(), cause.toString());
        } else {
            int count = badInput.occurred();
            if (count > 0) {
                log.warn("closing connection {} after bad input: {} ({} connection(s) closed for bad input since the "
                        + "last such warning)", ctx.channel(), cause.toString(), count);
            }
        }
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        session.close();
        ctx.fireChannelInactive();
    }
}
