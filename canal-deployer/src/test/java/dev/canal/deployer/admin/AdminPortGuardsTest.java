package dev.canal.deployer.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.protocol.AdminPacket;
import dev.canal.server.admin.AdminRequests;
import dev.canal.server.admin.AdminServer;
import dev.canal.server.admin.CanalAdmin;
import dev.canal.server.admin.LogFiles;
import dev.canal.server.netty.AuthScramble;
import dev.canal.server.netty.Credentials;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin port holds nobody long who has not logged in, holds few connections, and lets no destination name
 * that is not a plain word through to the server it administers.
 */
class AdminPortGuardsTest {

    private static final String PASSWORD = "s3cret";
    private static final int AUTH_TIMEOUT_MILLIS = 300;

    @TempDir
    Path logs;

    private final List<String> askedAbout = new CopyOnWriteArrayList<>();
    private AdminServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void aConnectionThatDoesNotLogInInTimeIsToldAndClosed() throws Exception {
        start(AUTH_TIMEOUT_MILLIS);
        try (AdminPortClient silent = new AdminPortClient(server.port())) {
            AdminPacket.Ack closing = silent.read();

            assertThat(closing.getCode()).isEqualTo(AdminRequests.ERROR_AUTH);
            assertThat(closing.getMessage()).contains("not completed within " + AUTH_TIMEOUT_MILLIS + " ms");
            assertThat(silent.closedByServer()).isTrue();
        }
    }

    @Test
    void connectionsBeyondTheCapOfAnAddressAreRefused() throws Exception {
        start(AdminServer.AUTH_TIMEOUT_MILLIS); // the first connection still logs in after the others opened
        List<AdminPortClient> open = new ArrayList<>();
        try {
            for (int i = 0; i < AdminServer.MAX_CONNECTIONS_PER_ADDRESS; i++) {
                open.add(new AdminPortClient(server.port()));
            }
            try (AdminPortClient oneMore = new AdminPortClient(server.port())) {
                AdminPacket.Ack refused = oneMore.read();

                assertThat(refused.getCode()).isEqualTo(AdminRequests.ERROR_FAILED);
                assertThat(refused.getMessage()).contains("at most " + AdminServer.MAX_CONNECTIONS_PER_ADDRESS);
            }
            assertThat(open.get(0).login("admin", PASSWORD).getCode()).isZero();
        } finally {
            for (AdminPortClient client : open) {
                client.close();
            }
        }
    }

    @Test
    void aDestinationNameThatIsNoPlainWordNeverReachesTheServer() throws Exception {
        start(AdminServer.AUTH_TIMEOUT_MILLIS);
        try (AdminPortClient admin = new AdminPortClient(server.port())) {
            admin.login("admin", PASSWORD);
            AdminPacket.Ack start = admin.instance("../../tmp/evil", "start");
            AdminPacket.Ack tail = admin.log(AdminPacket.LogAdmin.newBuilder().setType("instance").setAction("tail")
                    .setDestination("..").build());
            AdminPacket.Ack plain = admin.instance("orders", "start");

            assertThat(start.getCode()).isEqualTo(AdminRequests.ERROR_FAILED);
            assertThat(start.getMessage()).contains("is not a valid name");
            assertThat(tail.getCode()).isEqualTo(AdminRequests.ERROR_FAILED);
            assertThat(plain.getMessage()).isEqualTo("1");
            assertThat(askedAbout).containsExactly("orders");
        }
    }

    private void start(int authTimeoutMillis) {
        server = new AdminServer("127.0.0.1", 0, new Credentials("admin", AuthScramble.passwordHash(PASSWORD)),
                new AdminRequests(new RecordingAdmin(), new LogFiles(logs)), authTimeoutMillis);
        server.start();
    }

    /** Answers every operation with success and records the destinations it was asked about. */
    private final class RecordingAdmin implements CanalAdmin {

        @Override
        public boolean check() {
            return true;
        }

        @Override
        public boolean start() {
            return true;
        }

        @Override
        public boolean stop() {
            return true;
        }

        @Override
        public boolean restart() {
            return true;
        }

        @Override
        public List<String> runningInstances() {
            return List.of();
        }

        @Override
        public boolean checkInstance(String destination) {
            return asked(destination);
        }

        @Override
        public boolean startInstance(String destination) {
            return asked(destination);
        }

        @Override
        public boolean stopInstance(String destination) {
            return asked(destination);
        }

        @Override
        public boolean releaseInstance(String destination) {
            return asked(destination);
        }

        @Override
        public boolean restartInstance(String destination) {
            return asked(destination);
        }

        private boolean asked(String destination) {
            askedAbout.add(destination);
            return true;
        }
    }
}
