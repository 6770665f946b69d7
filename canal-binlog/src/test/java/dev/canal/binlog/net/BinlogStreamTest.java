package dev.canal.binlog.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

class BinlogStreamTest {

    /** A binlog event with a valid header (type, size, next position) and a CRC32 trailer. */
    static byte[] event(int type, long nextPosition, byte[] body) {
        byte[] e = new byte[19 + body.length + 4];
        e[4] = (byte) type;
        putInt(e, 9, e.length);
        putInt(e, 13, nextPosition);
        System.arraycopy(body, 0, e, 19, body.length);
        CRC32 crc = new CRC32();
        crc.update(e, 0, e.length - 4);
        putInt(e, e.length - 4, crc.getValue());
        return e;
    }

    private static void putInt(byte[] b, int at, long v) {
        for (int i = 0; i < 4; i++) {
            b[at + i] = (byte) (v >>> (8 * i));
        }
    }

    private static byte[] okPacket(byte[] event) {
        byte[] p = new byte[event.length + 1];
        System.arraycopy(event, 0, p, 1, event.length);
        return p;
    }

    private static BinlogStream stream(byte[]... payloads) throws IOException {
        byte[] wire = PacketChannelTest.frame(payloads);
        PacketChannel channel = new PacketChannel(new ByteArrayInputStream(wire), new ByteArrayOutputStream(), "test");
        return new BinlogStream(channel, BinlogChecksumType.CRC32, "binlog.000001", "binlog.000001:4");
    }

    @Test
    void eventsArriveWithoutTheMarkerAndLargeOnesAreReassembled() throws IOException {
        long seed = System.nanoTime();
        System.out.println("eventsArriveWithoutTheMarkerAndLargeOnesAreReassembled seed=" + seed);
        Random random = new Random(seed);
        byte[] rotate = event(4, 0, rotateBody("binlog.000002"));
        byte[] bigBody = new byte[2 * PacketChannel.MAX_PAYLOAD + random.nextInt(100)];
        random.nextBytes(bigBody);
        byte[] big = event(30, 4 + 19 + bigBody.length + 4, bigBody);
        byte[] small = event(16, 100, new byte[] {7});

        BinlogStream stream = stream(okPacket(rotate), okPacket(big), okPacket(small), new byte[] {(byte) 0xFE, 0, 0, 2, 0});
        assertThat(stream.next()).isEqualTo(rotate);
        assertThat(stream.currentFile()).isEqualTo("binlog.000002");
        assertThat(stream.next()).isEqualTo(big);
        assertThat(stream.next()).isEqualTo(small);
        assertThat(stream.nextPosition()).isEqualTo(100);
        assertThat(stream.next()).as("EOF packet ends the stream").isNull();
        assertThat(stream.next()).isNull();
        assertThat(stream.checksumLength()).isEqualTo(4);
    }

    @Test
    void aLargeEventPassesTheGateBeforeItIsReadAndSmallOnesDoNot() throws IOException {
        byte[] small = event(16, 100, new byte[] {7});
        byte[] large = event(30, 3000, new byte[2000]);
        BinlogStream stream = stream(okPacket(small), okPacket(large), okPacket(small));
        List<String> seen = new ArrayList<>();
        stream.gateLargeEvents(large.length, bytes -> seen.add("gate " + bytes));

        for (int i = 0; i < 3; i++) {
            seen.add("event " + stream.next().length);
        }
        assertThat(seen).containsExactly("event " + small.length, "gate " + large.length, "event " + large.length,
                "event " + small.length);
    }

    @Test
    void anEventLongerThanTheMaximumIsRefused() throws IOException {
        byte[] big = event(30, 0, new byte[PacketChannel.MAX_PAYLOAD + 10]);
        byte[] wire = PacketChannelTest.frame(okPacket(big));
        int max = 8 * 1024 * 1024;
        PacketChannel channel = new PacketChannel(new ByteArrayInputStream(wire), new ByteArrayOutputStream(), "test",
                max);
        BinlogStream stream = new BinlogStream(channel, BinlogChecksumType.CRC32, "binlog.000001", "binlog.000001:4");

        assertThatThrownBy(stream::next).hasMessageContaining("above the maximum of " + max);
    }

    @Test
    void aHeaderClaimingAHugeEventIsRefusedBeforeAnythingOfThatSizeIsAllocated() throws IOException {
        byte[] lying = event(30, 0, new byte[PacketChannel.MAX_PAYLOAD + 10]);
        putInt(lying, 9, 0xFFFF_FFF0L); // 4 GiB claimed, 16 MiB sent
        BinlogStream stream = stream(okPacket(lying));

        assertThatThrownBy(stream::next).hasMessageContaining("above the maximum of "
                + NetworkOptions.DEFAULT_MAX_PACKET_SIZE);
    }

    @Test
    void aHeaderClaimingMoreThanArrivesFailsWithoutHoldingWhatItClaimed() throws IOException {
        byte[] lying = event(30, 0, new byte[PacketChannel.MAX_PAYLOAD + 10]);
        putInt(lying, 9, NetworkOptions.DEFAULT_MAX_PACKET_SIZE); // 1 GiB claimed, 16 MiB sent
        BinlogStream stream = stream(okPacket(lying));
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();

        assertThatThrownBy(stream::next).hasMessageContaining("header says " + NetworkOptions.DEFAULT_MAX_PACKET_SIZE);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(allocated).as("bytes allocated reading a 16 MiB event that claims 1 GiB")
                .isLessThan(4L * PacketChannel.MAX_PAYLOAD);
    }

    @Test
    void errorPacketBecomesServerExceptionWithCodeStateAndMessage() throws IOException {
        byte[] message = "Could not find first log file name in binary log index file".getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream error = new ByteArrayOutputStream();
        error.write(0xFF);
        error.write(1236 & 0xFF);
        error.write(1236 >> 8);
        error.writeBytes("#HY000".getBytes(StandardCharsets.US_ASCII));
        error.writeBytes(message);
        BinlogStream stream = stream(error.toByteArray());
        assertThatThrownBy(stream::next).isInstanceOfSatisfying(MysqlServerException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(1236);
            assertThat(e.sqlState()).isEqualTo("HY000");
            assertThat(e.serverMessage()).startsWith("Could not find first log file");
            assertThat(e.getMessage()).contains("binlog dump from binlog.000001:4", "1236");
        });
    }

    @Test
    void corruptedEventFailsItsChecksumNamingThePosition() throws IOException {
        byte[] e = event(30, 500, new byte[] {1, 2, 3, 4, 5});
        e[21] ^= 0x40;
        BinlogStream stream = stream(okPacket(e));
        assertThatThrownBy(stream::next).isInstanceOfSatisfying(BinlogChecksumException.class, ex -> {
            assertThat(ex.position()).isEqualTo(500 - e.length);
            assertThat(ex.file()).isEqualTo("binlog.000001");
            assertThat(ex.getMessage()).contains("CRC32 mismatch", "binlog.000001:" + (500 - e.length));
        });
    }

    @Test
    void checksumAcceptsIntactEventsAndIgnoresThemWhenOff() throws IOException {
        byte[] e = event(2, 300, new byte[] {9, 9});
        EventChecksum checksum = new EventChecksum();
        checksum.verify(e, BinlogChecksumType.CRC32, "f");
        e[19] = 0;
        checksum.verify(e, BinlogChecksumType.NONE, "f");
        assertThatThrownBy(() -> checksum.verify(e, BinlogChecksumType.CRC32, "f"))
                .isInstanceOf(BinlogChecksumException.class);
    }

    /** A FORMAT_DESCRIPTION event of a checksum-aware server: its last body byte names the file's algorithm. */
    private static byte[] formatDescription(long nextPosition, BinlogChecksumType announced) {
        byte[] body = new byte[2 + 50 + 4 + 1 + 40 + 1];
        body[0] = 4;
        body[2 + 50 + 4] = 19;
        body[body.length - 1] = (byte) (announced == BinlogChecksumType.CRC32 ? 1 : 0);
        return event(15, nextPosition, body); // checksummed whatever it announces
    }

    private static byte[] withoutChecksum(byte[] event) {
        byte[] e = java.util.Arrays.copyOf(event, event.length - 4);
        putInt(e, 9, e.length);
        return e;
    }

    @Test
    void eachFileFollowsTheChecksumItsFormatDescriptionAnnounces() throws IOException {
        byte[] fakeRotate = event(4, 0, rotateBody("binlog.000007"));
        byte[] plainFile = formatDescription(120, BinlogChecksumType.NONE);
        byte[] plainEvent = withoutChecksum(event(2, 150, new byte[] {1, 2, 3, 4, 5, 6, 7}));
        byte[] plainRotate = withoutChecksum(event(4, 190, rotateBody("binlog.000008")));
        byte[] crcFile = formatDescription(120, BinlogChecksumType.CRC32);
        byte[] crcEvent = event(2, 160, new byte[] {1, 2, 3});

        BinlogStream stream = stream(okPacket(fakeRotate), okPacket(plainFile), okPacket(plainEvent),
                okPacket(plainRotate), okPacket(crcFile), okPacket(crcEvent));
        assertThat(stream.next()).isEqualTo(fakeRotate);
        assertThat(stream.checksumLength()).as("before any FORMAT_DESCRIPTION: the session's").isEqualTo(4);
        assertThat(stream.next()).isEqualTo(plainFile);
        assertThat(stream.checksumLength()).isEqualTo(4);
        assertThat(stream.checksumType()).isEqualTo(BinlogChecksumType.NONE);
        assertThat(stream.next()).isEqualTo(plainEvent);
        assertThat(stream.checksumLength()).isZero();
        assertThat(stream.next()).isEqualTo(plainRotate);
        assertThat(stream.currentFile()).isEqualTo("binlog.000008");
        assertThat(stream.next()).isEqualTo(crcFile);
        assertThat(stream.checksumType()).isEqualTo(BinlogChecksumType.CRC32);
        assertThat(stream.next()).isEqualTo(crcEvent);
        assertThat(stream.checksumLength()).isEqualTo(4);
    }

    private static byte[] rotateBody(String file) {
        byte[] name = file.getBytes(StandardCharsets.US_ASCII);
        byte[] body = new byte[8 + name.length];
        body[0] = 4;
        System.arraycopy(name, 0, body, 8, name.length);
        return body;
    }

    @Test
    void truncatedStreamIsAConnectionLossNotAHalfEvent() throws IOException {
        byte[] wire = PacketChannelTest.frame(okPacket(event(2, 300, new byte[100])));
        byte[] cut = java.util.Arrays.copyOf(wire, wire.length - 10);
        PacketChannel channel = new PacketChannel(new ByteArrayInputStream(cut), new ByteArrayOutputStream(), "test");
        BinlogStream stream = new BinlogStream(channel, BinlogChecksumType.CRC32, null, "test");
        assertThatThrownBy(stream::next).isInstanceOf(ConnectionLostException.class)
                .hasMessageContaining("closed by the server test, reading the binlog dump from test");
        assertThat(stream.next()).as("a lost stream stays ended").isNull();
    }
}
