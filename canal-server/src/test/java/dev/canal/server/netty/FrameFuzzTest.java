package dev.canal.server.netty;

import static dev.canal.server.netty.RunningServer.DESTINATION;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.canal.meta.MemoryMetaManager;
import dev.canal.protocol.CanalPacket;
import dev.canal.protocol.CanalPacket.PacketType;
import dev.canal.server.ServerConfig;
import dev.canal.server.TestEntries;
import dev.canal.store.StoreConfig;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Bad input closes the session that sent it and nothing else: random bytes, truncated frames,
 * absurd lengths and early packets. The frame decoder never buffers more than the configured maximum, which
 * the tests show by a too-long length being refused from its 4-byte header alone.
 */
class FrameFuzzTest {

    private static final int MAX_FRAME = 4096;

    private RunningServer server;
    private WireClient healthy;

    @BeforeEach
    void start() throws Exception {
        server = RunningServer.with(ServerConfig.open(0).withMaxFrameLength(MAX_FRAME), StoreConfig.itemSize(64),
                MemoryMetaManager::new, true);
        server.instance.put(TestEntries.transaction(100, 1));
        healthy = WireClient.authenticated(server.port());
        healthy.subscribe(DESTINATION, "1001", "");
        assertThat(healthy.readAck().getErrorCode()).isZero();
    }

    @AfterEach
    void stop() throws Exception {
        healthy.close();
        server.close();
    }

    @Test
    void lengthAboveTheMaximumClosesFromTheHeaderAlone() throws Exception {
        for (int declared : new int[] {MAX_FRAME + 1, Integer.MAX_VALUE}) {
            try (WireClient client = new WireClient(server.port())) {
                client.readPacket();
                client.writeRaw(ByteBuffer.allocate(4).putInt(declared).array());

                assertThat(client.closedByServer()).as("declared length %d", declared).isTrue();
            }
        }
        assertHealthyClientStillServed();
    }

    @Test
    void negativeLengthClosesTheSession() throws Exception {
        try (WireClient client = WireClient.authenticated(server.port())) {
            client.writeRaw(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xfe, 1, 2, 3});

            assertThat(client.closedByServer()).isTrue();
        }
        assertHealthyClientStillServed();
    }

    @Test
    void bodyThatIsNoPacketClosesTheSession() throws Exception {
        try (WireClient client = WireClient.authenticated(server.port())) {
            client.writeFrame(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff});

            assertThat(client.closedByServer()).isTrue();
        }
        assertHealthyClientStillServed();
    }

    @Test
    void truncatedFrameThenDisconnectLeavesOthersUnaffected() throws Exception {
        try (WireClient client = WireClient.authenticated(server.port())) {
            client.writeRaw(ByteBuffer.allocate(14).putInt(100).put(new byte[10]).array());
        }
        try (WireClient client = new WireClient(server.port())) {
            client.writeRaw(new byte[] {0, 0}); // half a length, before even reading the handshake
        }
        assertHealthyClientStillServed();
    }

    @ParameterizedTest
    @EnumSource(value = PacketType.class, names = {"CLIENTAUTHENTICATION", "UNRECOGNIZED"},
            mode = EnumSource.Mode.EXCLUDE)
    void packetOfAnyOtherTypeBeforeAuthenticationClosesTheSession(PacketType type) throws Exception {
        try (WireClient client = new WireClient(server.port())) {
            client.readPacket();
            client.send(type, CanalPacket.Sub.newBuilder().setDestination(DESTINATION).setClientId("1001").build()
                    .toByteString());

            CanalPacket.Ack refusal = client.readAck();
            assertThat(refusal.getErrorCode()).isEqualTo(400);
            assertThat(client.closedByServer()).isTrue();
        }
        assertHealthyClientStillServed();
    }

    @Test
    void randomBytesNeverHurtOtherSessions() throws Exception {
        long seed = System.nanoTime();
        System.out.println("FrameFuzzTest.randomBytesNeverHurtOtherSessions seed=" + seed);
        Random random = new Random(seed);
        for (int session = 0; session < 60; session++) {
            try (WireClient client = session % 3 == 2 ? WireClient.authenticated(server.port())
                    : new WireClient(server.port())) {
                byte[] garbage = new byte[random.nextInt(2 * MAX_FRAME)];
                random.nextBytes(garbage);
                if (session % 3 == 1 && garbage.length >= 4) { // a plausible length, then random content
                    ByteBuffer.wrap(garbage).putInt(random.nextInt(garbage.length - 3));
                }
                int declared = garbage.length >= 4 ? ByteBuffer.wrap(garbage).getInt() : 0;
                client.writeRaw(garbage);
                if (declared < 0 || declared > MAX_FRAME) {
                    client.soTimeout(5_000);
                    assertThat(client.closedByServer()).as("seed %d session %d declared %d", seed, session,
                            declared).isTrue();
                }
            } catch (java.net.SocketException e) {
                // the server may close while the garbage is still being written: that is the point
            }
        }
        assertHealthyClientStillServed();
    }

    private void assertHealthyClientStillServed() throws Exception {
        healthy.get(DESTINATION, 10, -1);
        CanalPacket.Messages messages = healthy.readMessages();
        if (messages.getBatchId() > 0) {
            healthy.rollback(DESTINATION, 0);
        }
        healthy.send(PacketType.HEARTBEAT, ByteString.EMPTY);
        assertThat(healthy.readAck().getErrorMessage()).isEqualTo("packet type: HEARTBEAT is NOT supported!");
    }
}
