package dev.canal.server.netty;

import static dev.canal.server.netty.RunningServer.DESTINATION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.ByteString;
import dev.canal.meta.MemoryMetaManager;
import dev.canal.protocol.CanalPacket;
import dev.canal.protocol.CanalPacket.PacketType;
import dev.canal.server.ServerConfig;
import dev.canal.server.TestEntries;
import dev.canal.server.metrics.DestinationClientMetrics;
import dev.canal.store.StoreConfig;
import java.time.Duration;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The TCP session flow of Canal's client protocol, byte-level, over real loopback sockets. */
class CanalNettyServerTest {

    @AutoClose
    private RunningServer server;

    @Test
    void handshakeIsVersionOneWithEightSeedBytes() throws Exception {
        server = RunningServer.open();
        try (WireClient client = new WireClient(server.port())) {
            CanalPacket.Packet handshake = client.readPacket();

            assertThat(handshake.getType()).isEqualTo(PacketType.HANDSHAKE);
            assertThat(handshake.getVersion()).isEqualTo(1);
            assertThat(CanalPacket.Handshake.parseFrom(handshake.getBody()).getSeeds().size()).isEqualTo(8);
        }
    }

    @Test
    void failedAuthenticationKeepsTheConnectionOpenForAnotherTry() throws Exception {
        server = RunningServer.with(ServerConfig.open(0).withCredentials("canal", AuthScramble.passwordHash("canal")));
        try (WireClient client = new WireClient(server.port())) {
            byte[] seed = CanalPacket.Handshake.parseFrom(client.readPacket().getBody()).getSeeds().toByteArray();

            client.send(PacketType.CLIENTAUTHENTICATION, auth("canal", AuthScramble.scramble("wrong", seed)));
            CanalPacket.Ack refused = client.readAck();
            client.send(PacketType.CLIENTAUTHENTICATION, auth("canal", AuthScramble.scramble("canal", seed)));
            CanalPacket.Ack accepted = client.readAck();

            assertThat(refused.getErrorCode()).isEqualTo(400);
            assertThat(refused.getErrorMessage()).isEqualTo("auth failed for user:canal");
            assertThat(accepted.getErrorCode()).isZero();
        }
    }

    @Test
    void wrongUserAndMissingPasswordAreRefused() throws Exception {
        server = RunningServer.with(ServerConfig.open(0).withCredentials("canal", AuthScramble.passwordHash("canal")));
        try (WireClient client = new WireClient(server.port())) {
            byte[] seed = CanalPacket.Handshake.parseFrom(client.readPacket().getBody()).getSeeds().toByteArray();

            client.send(PacketType.CLIENTAUTHENTICATION, auth("root", AuthScramble.scramble("canal", seed)));
            assertThat(client.readAck().getErrorMessage()).isEqualTo("auth failed for user:root");
            client.send(PacketType.CLIENTAUTHENTICATION, auth("canal", ""));
            assertThat(client.readAck().getErrorMessage()).isEqualTo("auth failed for user:canal");
        }
    }

    /**
     * Canal handles every request it received, even when the client has gone by then: a SUBSCRIPTION queued
     * behind a long-poll GET still subscribes after the client closed (the official client's subscribe() that
     * failed on quirk 11's rollback error, then disconnect(), relies on it to start the destination).
     */
    @Test
    void aSubscriptionQueuedWhenTheClientClosesStillRuns() throws Exception {
        server = RunningServer.open();
        try (WireClient client = WireClient.authenticated(server.port())) {
            client.subscribe(DESTINATION, "1001", "");
            assertThat(client.readAck().getErrorCode()).isZero();
            client.get(DESTINATION, 10, 60_000); // long-poll on an empty store: blocks the session's queue
            client.subscribe(DESTINATION, "1002", "");
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> server.instance.getMetaManager().listAllSubscribeInfo(DESTINATION)
                .stream().anyMatch(c -> c.clientId() == 1002));
    }

    @Test
    void packetOfAnotherTypeBeforeAuthenticationClosesTheSession() throws Exception {
        server = RunningServer.open();
        try (WireClient client = new WireClient(server.port())) {
            client.readPacket();
            client.get(DESTINATION, 10, -1);

            assertThat(client.readAck().getErrorCode()).isEqualTo(400);
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void subscribeGetAckRoundTrip() throws Exception {
        server = RunningServer.open();
        server.instance.put(TestEntries.transaction(100, 1));
        try (WireClient client = WireClient.authenticated(server.port())) {
            client.subscribe(DESTINATION, "1001", "");
            assertThat(client.readAck().getErrorCode()).isZero();

            client.get(DESTINATION, 100, -1);
            CanalPacket.Messages batch = client.readMessages();
            client.ack(DESTINATION, batch.getBatchId());
            client.get(DESTINATION, 100, -1);
            CanalPacket.Messages empty = client.readMessages();

            assertThat(batch.getBatchId()).isEqualTo(1);
            assertThat(batch.getMessagesList()).extracting(TestEntries::offsetOf).containsExactly(100L, 101L, 102L);
            assertThat(empty.getBatchId()).isEqualTo(-1);
            await().untilAsserted(() -> assertThat(server.instance.getMetaManager().listBatchIds(
                    new dev.canal.protocol.ClientIdentity(DESTINATION, (short) 1001))).isEmpty());
        }
    }

    @Test
    void ackOfBatchZeroIsAnsweredWith402ReadAsTheNextReply() throws Exception {
        server = RunningServer.open();
        try (WireClient client = WireClient.authenticated(server.port())) {
            client.subscribe(DESTINATION, "1001", "");
            client.readAck();

            client.ack(DESTINATION, -1); // ignored, no reply
            client.ack(DESTINATION, 0);
            CanalPacket.Ack error = client.readAck();
            client.get(DESTINATION, 10, -1);

            assertThat(error.getErrorCode()).isEqualTo(402);
            assertThat(error.getErrorMessage()).startsWith("batchId should assign value. Ack: ");
            assertThat(client.readMessages().getBatchId()).isEqualTo(-1);
        }
    }

    @Test
    void rollbackIsSilentAndRedeliversTheSameBatch() throws Exception {
        server = RunningServer.open();
        server.instance.put(TestEntries.transaction(100, 2));
        try (WireClient client = WireClient.authenticated(server.port())) {
            client.subscribe(DESTINATION, "1001", "");
            client.readAck();
            client.get(DESTINATION, 2, -1);
            CanalPacket.Messages first = client.readMessages();

            client.rollback(DESTINATION, first.getBatchId());
            client.get(DESTINATION, 2, -1);
            CanalPacket.Messages again = client.readMessages();

            assertThat(again.getMessagesList()).isEqualTo(first.getMessagesList());
            assertThat(again.getBatchId()).isEqualTo(first.getBatchId() + 1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"HEARTBEAT", "DUMP", "SHUTDOWN", "HANDSHAKE"})
    void unsupportedTypesAfterAuthenticationGet400AndTheSessionGoesOn(String type) throws Exception {
        server = RunningServer.open();
        try (WireClient client = WireClient.authenticated(server.port())) {
            client.send(PacketType.valueOf(type), ByteString.EMPTY);
            CanalPacket.Ack error = client.readAck();
            client.subscribe(DESTINATION, "1001", "");

            assertThat(error.getErrorCode()).isEqualTo(400);
            assertThat(error.getErrorMessage()).isEqualTo("packet type: " + type + " is NOT supported!");
            assertThat(client.readAck().getErrorCode()).isZero();
        }
    }

    @Test
    void missingIdentityGets401AndServerErrorsGet400WithCanalsText() throws Exception {
        server = RunningServer.open();
        try (WireClient client = WireClient.authenticated(server.port())) {
            client.subscribe(DESTINATION, "", "");
            CanalPacket.Ack missing = client.readAck();
            client.get(DESTINATION, 10, -1); // not subscribed
            CanalPacket.Ack notSubscribed = client.readAck();
            client.subscribe(DESTINATION, "not-a-short", "");
            CanalPacket.Ack badClientId = client.readAck();

            assertThat(missing.getErrorCode()).isEqualTo(401);
            assertThat(missing.getErrorMessage()).startsWith("destination or clientId is null. Sub: ");
            assertThat(notSubscribed.getErrorCode()).isEqualTo(400);
            assertThat(notSubscribed.getErrorMessage())
                    .startsWith("something goes wrong with channel: ")
                    .contains("ClientIdentity:ClientIdentity[destination=example, clientId=1001, filter=] "
                            + "should subscribe first");
            assertThat(badClientId.getErrorCode()).isEqualTo(400);
            assertThat(badClientId.getErrorMessage()).endsWith(
                    "exception: clientId must be a number from -32768 to 32767, got 'not-a-short'");
        }
    }

    @Test
    void subscriptionStartsAStoppedDestination() throws Exception {
        server = RunningServer.open();
        server.embedded.stop(DESTINATION);
        try (WireClient client = WireClient.authenticated(server.port())) {
            client.subscribe(DESTINATION, "1001", "");

            assertThat(client.readAck().getErrorCode()).isZero();
            assertThat(server.embedded.isStart(DESTINATION)).isTrue();
        }
    }

    @Test
    void authenticationNamingADestinationSubscribesAtOnce() throws Exception {
        server = RunningServer.open();
        try (WireClient client = new WireClient(server.port())) {
            client.readPacket();
            client.send(PacketType.CLIENTAUTHENTICATION, CanalPacket.ClientAuth.newBuilder()
                    .setDestination(DESTINATION).setClientId("1001").setFilter("test\\..*").build().toByteString());

            assertThat(client.readAck().getErrorCode()).isZero();
            assertThat(server.instance.appliedFilters()).containsExactly("test\\..*");
        }
    }

    @Test
    void longPollGetWaitsForDataWithoutBlockingOtherClients() throws Exception {
        server = RunningServer.open();
        try (WireClient waiting = WireClient.authenticated(server.port())) {
            waiting.subscribe(DESTINATION, "1001", "");
            waiting.readAck();
            waiting.get(DESTINATION, 3, 0); // wait forever for 3 entries

            for (int i = 0; i < 8; i++) { // more clients than event loops: one shares the waiting one's loop
                try (WireClient other = WireClient.authenticated(server.port())) {
                    other.subscribe(DESTINATION, "1002", "");
                    assertThat(other.readAck().getErrorCode()).isZero();
                }
            }
            server.instance.put(TestEntries.transaction(100, 1));

            assertThat(waiting.readMessages().getMessagesList()).hasSize(3);
        }
    }

    @Test
    void disconnectingDuringALongPollReleasesTheInstanceForOtherClients() throws Exception {
        server = RunningServer.open();
        try (WireClient leaving = WireClient.authenticated(server.port())) {
            leaving.subscribe(DESTINATION, "1001", "");
            leaving.readAck();
            leaving.get(DESTINATION, 3, 0); // waits forever, holding the destination's get lock
            await().until(CanalNettyServerTest::aSessionThreadWaitsInTheStore);
        }
        try (WireClient next = WireClient.authenticated(server.port())) {
            next.subscribe(DESTINATION, "1001", "");
            next.readAck();
            next.get(DESTINATION, 3, -1);

            assertThat(next.readMessages().getBatchId()).isEqualTo(-1);
        }
    }

    @Test
    void pipelinedRequestsAreAnsweredInRequestOrder() throws Exception {
        server = RunningServer.open();
        try (WireClient client = WireClient.authenticated(server.port())) {
            client.subscribe(DESTINATION, "1001", "");
            client.get(DESTINATION, 10, 300); // waits 300 ms, then answers empty
            client.send(PacketType.HEARTBEAT, ByteString.EMPTY);
            client.get(DESTINATION, 10, -1);

            assertThat(client.readAck().getErrorCode()).isZero();
            assertThat(client.readMessages().getBatchId()).isEqualTo(-1);
            assertThat(client.readAck().getErrorCode()).isEqualTo(400);
            assertThat(client.readMessages().getBatchId()).isEqualTo(-1);
        }
    }

    @Test
    void idleTimeoutFromTheClientClosesTheConnection() throws Exception {
        server = RunningServer.open();
        try (WireClient client = new WireClient(server.port())) {
            client.readPacket();
            client.send(PacketType.CLIENTAUTHENTICATION, CanalPacket.ClientAuth.newBuilder()
                    .setNetReadTimeout(200).setNetWriteTimeout(200).build().toByteString());
            assertThat(client.readAck().getErrorCode()).isZero();

            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    @EnabledOnOs(value = OS.LINUX, architectures = "amd64")
    void epollTransportIsChosenOnLinux() {
        server = RunningServer.open();

        assertThat(server.tcp.transport()).isEqualTo("epoll");
    }

    @Test
    void nioTransportServesTheSameProtocol() throws Exception {
        server = RunningServer.with(ServerConfig.open(0), StoreConfig.itemSize(64), MemoryMetaManager::new, false);
        assertThat(server.tcp.transport()).isEqualTo("nio");
        server.instance.put(TestEntries.transaction(100, 1));
        try (WireClient client = WireClient.authenticated(server.port())) {
            client.subscribe(DESTINATION, "1001", "");
            client.readAck();
            client.get(DESTINATION, 10, -1);

            assertThat(client.readMessages().getMessagesCount()).isEqualTo(3);
        }
    }

    @Test
    void metricsCountPacketsBytesEmptyBatchesAndErrors() throws Exception {
        server = RunningServer.open();
        server.instance.put(TestEntries.transaction(100, 1));
        try (WireClient client = WireClient.authenticated(server.port())) {
            client.subscribe(DESTINATION, "1001", "");
            client.readAck();
            client.get(DESTINATION, 10, -1);
            long batchId = client.readMessages().getBatchId();
            client.get(DESTINATION, 10, -1);
            client.readMessages();
            client.ack(DESTINATION, batchId);
            client.ack(DESTINATION, 0);
            client.readAck();

            DestinationClientMetrics metrics = server.metrics.of(DESTINATION);
            await().untilAsserted(() -> assertThat(metrics.packets())
                    .containsEntry("SUBSCRIPTION", 1L).containsEntry("GET", 1L).containsEntry("CLIENTACK", 1L));
            assertThat(metrics.emptyBatches()).isEqualTo(1);
            assertThat(metrics.errors()).containsEntry(402, 1L);
            assertThat(metrics.bytes()).isGreaterThan(4L * 4);
            assertThat(metrics.latencyCount()).isEqualTo(5);
        }
    }

    @Test
    void stopClosesClientConnections() throws Exception {
        server = RunningServer.open();
        try (WireClient client = WireClient.authenticated(server.port())) {
            server.close();
            server = null;

            assertThat(client.closedByServer()).isTrue();
        }
    }

    private static boolean aSessionThreadWaitsInTheStore() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(thread -> thread.getKey().getName().startsWith("canal-server-session"))
                .anyMatch(thread -> java.util.Arrays.stream(thread.getValue()).anyMatch(frame ->
                        frame.getClassName().equals("dev.canal.store.MemoryEventStore")
                                && frame.getMethodName().equals("get")));
    }

    private static ByteString auth(String user, String token) {
        return CanalPacket.ClientAuth.newBuilder().setUsername(user).setPassword(ByteString.copyFromUtf8(token))
                .setNetReadTimeout(3_600_000).setNetWriteTimeout(3_600_000).build().toByteString();
    }
}
