package dev.canal.server.netty;

import dev.canal.protocol.CanalPacket;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;
import java.util.List;

/** Turns one frame's bytes into a {@code Packet}; bytes that do not parse fail the pipeline, which closes the session. */
final class PacketDecoder extends MessageToMessageDecoder<ByteBuf> {

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) throws Exception {
        out.add(CanalPacket.Packet.parseFrom(frame.nioBuffer()));
    }
}
