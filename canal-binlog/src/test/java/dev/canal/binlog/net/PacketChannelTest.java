package dev.canal.binlog.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.binlog.io.MalformedDataException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PacketChannelTest {

    private static final int MAX = PacketChannel.MAX_PAYLOAD;

    private static byte[] randomBytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private static PacketChannel reading(byte[] wire) {
        return new PacketChannel(new ByteArrayInputStream(wire), new ByteArrayOutputStream(), "test");
    }

    /** Frames payloads as a server would, each logical packet continuing its sequence ids. */
    static byte[] frame(byte[]... payloads) throws IOException {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        PacketChannel writer = new PacketChannel(new ByteArrayInputStream(new byte[0]), wire, "test");
        for (byte[] payload : payloads) {
            writer.writePacket(payload);
        }
        return wire.toByteArray();
    }

    @Test
    void logicalPacketsAcross16MiBBoundariesAreReassembled() throws IOException {
        long seed = System.nanoTime();
        System.out.println("logicalPacketsAcross16MiBBoundariesAreReassembled seed=" + seed);
        Random random = new Random(seed);
        byte[] exact = randomBytes(random, MAX); // needs a trailing empty packet
        byte[] over = randomBytes(random, MAX + 1 + random.nextInt(1000));
        byte[] small = randomBytes(random, 3);
        byte[] wire = frame(exact, over, small);
        assertThat(wire.length).isEqualTo(exact.length + over.length + small.length + 4 * 5);

        PacketChannel channel = reading(wire);
        assertThat(channel.readPacket()).isEqualTo(exact);
        assertThat(channel.readPacket()).isEqualTo(over);
        assertThat(channel.readPacket()).isEqualTo(small);
    }

    @Test
    void headerCarriesLengthAndIncreasingSequence() throws IOException {
        byte[] wire = frame(new byte[] {1, 2, 3}, new byte[0]);
        assertThat(Arrays.copyOf(wire, 8)).containsExactly(3, 0, 0, 0, 1, 2, 3, 0);
        assertThat(Arrays.copyOfRange(wire, 7, 11)).containsExactly(0, 0, 0, 1);
    }

    @Test
    void outOfOrderSequenceIsRejected() {
        byte[] wire = {1, 0, 0, 5, 42};
        assertThatThrownBy(() -> reading(wire).readPacket()).isInstanceOf(MalformedDataException.class)
                .hasMessageContaining("sequence id 5, expected 0");
    }

    @Test
    void streamEndingMidPacketIsAConnectionLoss() {
        byte[] wire = {10, 0, 0, 0, 1, 2, 3};
        assertThatThrownBy(() -> reading(wire).readPacket()).isInstanceOf(ConnectionLostException.class)
                .hasMessageContaining("closed by the server test");
    }
}
