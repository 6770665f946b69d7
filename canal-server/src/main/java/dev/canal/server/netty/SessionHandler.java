package dev.canal.server.netty;

import dev.canal.protocol.CanalPacket;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;

/** Hands each request of an authenticated client to its session queue, off the event loop. */
final class SessionHandler extends SimpleChannelInboundHandler<CanalPacket.Packet> {

    private final ChannelSession session;
    private final RequestProcessor processor;

    SessionHandler(ChannelSession session, RequestProcessor processor) {
        this.session = session;
        this.processor = processor;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, CanalPacket.Packet packet) {
        session.submit(() -> processor.handle(session, packet));
    }
}
