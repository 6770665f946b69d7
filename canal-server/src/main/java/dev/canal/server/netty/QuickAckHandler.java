package dev.canal.server.netty;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.epoll.EpollSocketChannel;

/**
 * Keeps TCP_QUICKACK armed on epoll sockets. The official client writes each request's 4-byte length and
 * its body in two writes without TCP_NODELAY, so Nagle holds the body until the length is acknowledged;
 * with Linux's delayed ACK that costs about 40 ms per request. Linux leaves quick-ack mode on its own (after
 * reads, and when we answer, since a reply makes the connection look interactive), so the option is set
 * again after every read and every flush. On NIO this handler does nothing.
 */
@Sharable
final class QuickAckHandler extends ChannelDuplexHandler {

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        arm(ctx);
        ctx.fireChannelActive();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        arm(ctx);
        ctx.fireChannelReadComplete();
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        ctx.flush();
        arm(ctx);
    }

    private static void arm(ChannelHandlerContext ctx) {
        if (ctx.channel() instanceof EpollSocketChannel epoll && epoll.isActive()) {
            epoll.config().setTcpQuickAck(true);
        }
    }
}
