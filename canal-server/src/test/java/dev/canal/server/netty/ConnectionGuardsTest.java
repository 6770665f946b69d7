package dev.canal.server.netty;

import static dev.canal.server.netty.RunningServer.DESTINATION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import com.google.protobuf.ByteString;
import dev.canal.protocol.CanalPacket;
import dev.canal.protocol.CanalPacket.PacketType;
import dev.canal.server.ClientLimits;
import dev.canal.server.ServerConfig;
import dev.canal.server.TestEntries;
import dev.canal.testsupport.LogCapture;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** The authentication deadline and the connection cap: abuse of the client port is cut off, real clients go on. */
class ConnectionGuardsTest {

    private static final int AUTH_TIMEOUT_MILLIS = 300;

    @AutoClose
    private RunningServer server;

    @Test
    void silentConnectionGetsAnErrorAndIsClosedAfterTheAuthDeadlineWhileAnAuthenticatedOneKeepsWorking()
            throws Exception {
        server = RunningServer.with(ServerConfig.open(0).withAuthTimeoutMillis(AUTH_TIMEOUT_MILLIS));
        server.instance.put(TestEntries.transaction(100, 1));
        try (WireClient authenticated = WireClient.authenticated(server.port());
                WireClient silent = new WireClient(server.port())) {
            assertThat(silent.readPacket().getType()).isEqualTo(PacketType.HANDSHAKE);

            CanalPacket.Ack timedOut = silent.readAck(); // sent once the deadline passes

            assertThat(timedOut.getErrorCode()).isEqualTo(400);
            assertThat(timedOut.getErrorMessage()).contains("authentication not completed within 300 ms",
                    ServerConfig.AUTH_TIMEOUT.name());
            assertThat(silent.closedByServer()).isTrue();
            // the authenticated client connected before the silent one: its own deadline is long past too
            authenticated.subscribe(DESTINATION, "1001", "");
            assertThat(authenticated.readAck().getErrorCode()).isZero();
            authenticated.get(DESTINATION, 100, -1);
            assertThat(authenticated.readMessages().getMessagesList()).hasSize(3);
        }
    }

    @Test
    void wrongPasswordsAndAPartialFrameDoNotOutliveTheAuthDeadline() throws Exception {
        server = RunningServer.with(ServerConfig.open(0).withAuthTimeoutMillis(AUTH_TIMEOUT_MILLIS)
                .withCredentials("canal", AuthScramble.passwordHash("canal")));
        try (WireClient guessing = new WireClient(server.port()); WireClient stalling = new WireClient(server.port())) {
            guessing.readPacket();
            stalling.readPacket();
            stalling.writeRaw(ByteBuffer.allocate(4 + 10).putInt(100).array()); // 10 of 100 declared bytes

            guessing.send(PacketType.CLIENTAUTHENTICATION, CanalPacket.ClientAuth.newBuilder()
                    .setUsername("canal").setPassword(ByteString.copyFromUtf8("guess")).build().toByteString());

            assertThat(guessing.readAck().getErrorMessage()).isEqualTo("auth failed for user:canal");
            assertThat(guessing.readAck().getErrorMessage()).contains(ServerConfig.AUTH_TIMEOUT.name());
            assertThat(guessing.closedByServer()).isTrue();
            assertThat(stalling.readAck().getErrorMessage()).contains(ServerConfig.AUTH_TIMEOUT.name());
            assertThat(stalling.closedByServer()).isTrue();
        }
    }

    @Test
    void connectionBeyondTheCapIsRefusedWithAnErrorWhileTheOthersAreServed() throws Exception {
        server = RunningServer.with(ServerConfig.open(0).withMaxConnections(2));
        server.instance.put(TestEntries.transaction(100, 1));
        try (WireClient first = WireClient.authenticated(server.port());
                WireClient second = WireClient.authenticated(server.port())) {
            for (int i = 0; i < 3; i++) {
                try (WireClient third = new WireClient(server.port())) {
                    assertThat(third.readPacket().getType()).isEqualTo(PacketType.HANDSHAKE);
                    CanalPacket.Ack refused = third.readAck(); // what an authenticating client reads as its reply

                    assertThat(refused.getErrorCode()).isEqualTo(400);
                    assertThat(refused.getErrorMessage()).contains("at most 2", ServerConfig.MAX_CONNECTIONS.name());
                    assertThat(third.closedByServer()).isTrue();
                }
            }
            for (WireClient client : List.of(first, second)) {
                client.subscribe(DESTINATION, "1001", "");
                assertThat(client.readAck().getErrorCode()).isZero();
                client.get(DESTINATION, 100, -1);
                client.readMessages();
            }

            first.close();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                try (WireClient next = new WireClient(server.port())) {
                    next.readPacket();
                    next.send(PacketType.CLIENTAUTHENTICATION, CanalPacket.ClientAuth.newBuilder().build().toByteString());
                    assertThat(next.readAck().getErrorMessage()).isEmpty();
                }
            });
        }
    }

    @Test
    void refusalsOfABurstAreLoggedOnce() throws Exception {
        try (LogCapture logs = LogCapture.attach(ConnectionLimit.class.getName())) {
            InetAddress client = InetAddress.getByAddress(new byte[] {10, 0, 0, 1});
            ConnectionLimit limit = new ConnectionLimit("client", 1, ServerConfig.MAX_CONNECTIONS.name(), 1,
                    ClientLimits.MAX_CONNECTIONS_PER_ADDRESS.name());
            assertThat(limit.tryAcquire(client)).isNull();

            List<String> burst = List.of(limit.tryAcquire(client), limit.tryAcquire(client), limit.tryAcquire(client));
            limit.release(client);

            assertThat(burst).allSatisfy(refusal -> assertThat(refusal).contains("at most 1",
                    ServerConfig.MAX_CONNECTIONS.name()));
            assertThat(limit.tryAcquire(client)).isNull();
            String thisThread = Thread.currentThread().getName(); // servers of other tests have limits too
            assertThat(logs.events()).filteredOn(event -> event.getThreadName().equals(thisThread)).singleElement().satisfies(event -> {
                assertThat(event.getLevel()).isEqualTo(Level.WARN);
                assertThat(event.getFormattedMessage()).contains(ServerConfig.MAX_CONNECTIONS.name(), "already 1 open");
            });
        }
    }

    @Test
    void oneAddressGetsNoMoreThanItsShareOfConnectionsWhileOthersStillGetIn() throws Exception {
        InetAddress greedy = InetAddress.getByAddress(new byte[] {10, 0, 0, 1});
        InetAddress other = InetAddress.getByAddress(new byte[] {10, 0, 0, 2});
        ConnectionLimit limit = new ConnectionLimit("client", 10, ServerConfig.MAX_CONNECTIONS.name(), 2,
                ClientLimits.MAX_CONNECTIONS_PER_ADDRESS.name());

        assertThat(limit.tryAcquire(greedy)).isNull();
        assertThat(limit.tryAcquire(greedy)).isNull();
        assertThat(limit.tryAcquire(greedy)).contains("from 10.0.0.1", "at most 2 per address",
                ClientLimits.MAX_CONNECTIONS_PER_ADDRESS.name());
        assertThat(limit.tryAcquire(other)).isNull();
        limit.release(greedy);
        assertThat(limit.tryAcquire(greedy)).isNull();
    }

    @Test
    void theClientPortRefusesAConnectionBeyondTheCapOfItsAddress() throws Exception {
        server = RunningServer.with(ServerConfig.open(0).withLimits(ClientLimits.defaults().withMaxConnections(10, 2)));
        try (WireClient first = WireClient.authenticated(server.port());
                WireClient second = WireClient.authenticated(server.port());
                WireClient third = new WireClient(server.port())) {
            assertThat(third.readPacket().getType()).isEqualTo(PacketType.HANDSHAKE);
            CanalPacket.Ack refused = third.readAck();

            assertThat(refused.getErrorMessage()).contains("at most 2 per address",
                    ClientLimits.MAX_CONNECTIONS_PER_ADDRESS.name());
            assertThat(third.closedByServer()).isTrue();
            first.subscribe(DESTINATION, "1001", "");
            assertThat(first.readAck().getErrorCode()).isZero();
        }
    }

    @Test
    void aFrameLargerThanAnAuthenticationPacketIsRefusedBeforeLoginButAcceptedAfter() throws Exception {
        server = RunningServer.open();
        int large = ClientLimits.UNAUTHENTICATED_MAX_FRAME_LENGTH + 1;
        try (WireClient unauthenticated = new WireClient(server.port());
                WireClient authenticated = WireClient.authenticated(server.port())) {
            unauthenticated.readPacket();
            unauthenticated.writeRaw(ByteBuffer.allocate(4).putInt(large).array());

            assertThat(unauthenticated.closedByServer()).as("declared %d bytes before login", large).isTrue();
            String filter = "test\\.t_" + "x".repeat(large);
            authenticated.subscribe(DESTINATION, "1001", filter);
            assertThat(authenticated.readAck().getErrorCode()).isZero();
        }
    }

    @Test
    void aConnectionIsClosedAfterItsLastAllowedWrongPassword() throws Exception {
        server = RunningServer.with(ServerConfig.open(0).withCredentials("canal", AuthScramble.passwordHash("canal"))
                .withLimits(ClientLimits.defaults().withMaxAuthFailures(2)));
        try (WireClient guessing = new WireClient(server.port())) {
            guessing.readPacket();
            for (int attempt = 1; attempt <= 2; attempt++) {
                guessing.send(PacketType.CLIENTAUTHENTICATION, CanalPacket.ClientAuth.newBuilder()
                        .setUsername("canal").setPassword(ByteString.copyFromUtf8("guess" + attempt)).build()
                        .toByteString());
                assertThat(guessing.readAck().getErrorMessage()).isEqualTo("auth failed for user:canal");
            }

            assertThat(guessing.closedByServer()).isTrue();
        }
    }

    @Test
    void aClientPortWithoutPasswordIsAnnouncedAsOpenToAnyoneAndOneWithAPasswordIsNot() {
        try (LogCapture logs = LogCapture.attach(CanalNettyServer.class.getName())) {
            try (RunningServer open = RunningServer.open()) {
                assertThat(logs.events()).anySatisfy(event -> assertThat(event.getFormattedMessage())
                        .contains(":" + open.port() + " is open to anyone who can reach it"));
            }
            int before = logs.events().size();
            try (RunningServer closed = RunningServer.with(ServerConfig.open(0)
                    .withCredentials("canal", AuthScramble.passwordHash("canal")))) {
                assertThat(logs.events().subList(before, logs.events().size()))
                        .noneSatisfy(event -> assertThat(event.getFormattedMessage()).contains("open to anyone"));
            }
        }
    }

    @Test
    void aFailedLoginIsLoggedWithTheUserNameEscapedAndCut() throws Exception {
        server = RunningServer.with(ServerConfig.open(0).withCredentials("canal", AuthScramble.passwordHash("canal")));
        String forged = "x\n2026-01-01 00:00:00 INFO forged line" + "y".repeat(5000);
        try (LogCapture logs = LogCapture.attach(AuthenticationHandler.class.getName());
                WireClient guessing = new WireClient(server.port())) {
            guessing.readPacket();
            guessing.send(PacketType.CLIENTAUTHENTICATION, CanalPacket.ClientAuth.newBuilder().setUsername(forged)
                    .setPassword(ByteString.copyFromUtf8("guess")).build().toByteString());
            guessing.readAck();

            assertThat(logs.events()).anySatisfy(event -> assertThat(event.getFormattedMessage())
                    .contains("authentication of user 'x\\u000a2026-01-01", "(5038 characters)")
                    .doesNotContain("\n").hasSizeLessThan(300));
        }
    }
}
