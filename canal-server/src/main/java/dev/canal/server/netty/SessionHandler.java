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
        // acks and rollbacks change the client's cursor and outstanding batches: they still count when the client
        // closes right after sending them (the official client's ack(id); disconnect() does exactly that)
        boolean mustRun = packet.getType() == CanalPacket.PacketType.CLIENTACK
                || packet.getType() == CanalPacket.PacketType.CLIENTROLLBACK;
        session.submit(() -> processor.handle(session, packet), mustRun);
    }
}
