package dev.canal.server.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Closes a connection that was idle longer than its read or write timeout; Canal has no heartbeat (quirk 7). */
final class IdleCloseHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(IdleCloseHandler.class);

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof IdleStateEvent idle) {
            log.warn("channel {} idle timeout exceeds ({}), closing it", ctx.channel(), idle.state());
            ctx.close();
            return;
        }
        ctx.fireUserEventTriggered(event);
    }
}
