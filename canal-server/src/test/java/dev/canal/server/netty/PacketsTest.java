package dev.canal.server.netty;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalPacket;
import dev.canal.protocol.CanalPacket.PacketType;
import dev.canal.protocol.Message;
import dev.canal.server.TestEntries;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Byte-exact frames against frames of Canal's protocol. */
class PacketsTest {

    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;

    @Test
    void successAckIsVersionOneTypeAckWithoutBody() {
        assertThat(packetHex(Packets.success(ALLOC))).isEqualTo("10011803");
    }

    @Test
    void errorAckCarriesCodeAndMessage() {
        assertThat(packetHex(Packets.error(ALLOC, 400, "x"))).isEqualTo("100118032a06089003120178");
    }

    @Test
    void handshakeCarriesTheSeed() {
        byte[] seed = {1, 2, 3, 4, 5, 6, 7, 8};

        assertThat(packetHex(Packets.handshake(ALLOC, seed))).isEqualTo("100118012a0a12080102030405060708");
    }

    @Test
    void emptyBatchIsAVersionOnePacketWithBatchIdMinusOne() {
        assertThat(packetHex(Packets.messages(ALLOC, Message.empty())))
                .isEqualTo("100118072a0b08ffffffffffffffffff01");
    }

    @Test
    void rawBatchIsHandEncodedWithoutVersionAndEntriesVerbatim() throws Exception {
        List<ByteString> entries = TestEntries.transaction(100, 200).stream()
                .map(CanalEntry.Entry::toByteString).toList(); // > 127 entries: multi-byte lengths

        byte[] packet = packetBytes(Packets.messages(ALLOC, Message.ofRawEntries(300, entries)));

        byte[] expected = CanalPacket.Packet.newBuilder().setType(PacketType.MESSAGES)
                .setBody(CanalPacket.Messages.newBuilder().setBatchId(300).addAllMessages(entries).build()
                        .toByteString())
                .build().toByteArray();
        assertThat(packet).isEqualTo(expected);
        assertThat(HexFormat.of().formatHex(packet, 0, 3)).isEqualTo("18072a");
        assertThat(CanalPacket.Packet.parseFrom(packet).hasVersion()).isFalse();
    }

    @Test
    void nonRawBatchIsAVersionOnePacketOfEncodedEntries() throws Exception {
        List<CanalEntry.Entry> entries = TestEntries.transaction(100, 1);

        CanalPacket.Packet packet = CanalPacket.Packet.parseFrom(
                packetBytes(Packets.messages(ALLOC, Message.ofEntries(7, entries))));

        assertThat(packet.getVersion()).isEqualTo(1);
        CanalPacket.Messages messages = CanalPacket.Messages.parseFrom(packet.getBody());
        assertThat(messages.getBatchId()).isEqualTo(7);
        assertThat(messages.getMessagesList())
                .containsExactlyElementsOf(entries.stream().map(CanalEntry.Entry::toByteString).toList());
    }

    /** The packet bytes after checking the 4-byte big-endian length prefix. */
    private static byte[] packetBytes(ByteBuf frame) {
        try {
            int length = frame.readInt();
            assertThat(frame.readableBytes()).isEqualTo(length);
            return ByteBufUtil.getBytes(frame);
        } finally {
            frame.release();
        }
    }

    private static String packetHex(ByteBuf frame) {
        return HexFormat.of().formatHex(packetBytes(frame));
    }
}
