package dev.canal.server.admin;

import dev.canal.protocol.AdminPacket;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;
import java.util.List;

/** Turns one frame's bytes into an admin {@code Packet}; bytes that do not parse close the connection. */
final class AdminPacketDecoder extends MessageToMessageDecoder<ByteBuf> {

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) throws Exception {
        out.add(AdminPacket.Packet.parseFrom(frame.nioBuffer()));
    }
}
