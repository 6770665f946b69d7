package dev.canal.deployer.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.deployer.CanalStarter;
import dev.canal.instance.spring.InstanceProperties.Source;
import dev.canal.protocol.AdminPacket;
import dev.canal.protocol.AdminPacket.Ack;
import dev.canal.server.admin.AdminRequests;
import dev.canal.server.netty.AuthScramble;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin port as canal-admin uses it, through a client written from the protocol: every SERVER, INSTANCE and
 * LOG action with its reply, against a server whose instances read the test database, and the refusal of a wrong
 * password.
 */
@ExtendWith(MySqlServerExtension.class)
class AdminPortIT {

    private static final String SCHEMA = "admin_port";
    private static final String PASSWORD = "s3cret";
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path conf;
    @TempDir
    Path logs;

    private CanalStarter starter;

    @BeforeEach
    void start(MySqlServer db) throws IOException {
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE " + SCHEMA + ".t (id INT PRIMARY KEY)");
        for (String destination : new String[] {"first", "second"}) {
            Files.createDirectories(conf.resolve(destination));
            Files.writeString(conf.resolve(destination).resolve("instance.properties"),
                    TableInstance.properties(db, SCHEMA, "t"));
        }
        Files.createDirectories(logs.resolve("canal"));
        Files.writeString(logs.resolve("canal").resolve("canal.log"), IntStream.rangeClosed(1, 150)
                .mapToObj(i -> "server line " + i).collect(Collectors.joining("\n", "", "\n")));
        Files.writeString(logs.resolve("canal").resolve("canal_stdout.log"), "stdout\n");
        Files.createDirectories(logs.resolve("first"));
        Files.writeString(logs.resolve("first").resolve("first.log"), "first 1\nfirst 2\nfirst 3\n");
        Files.writeString(logs.resolve("first").resolve("meta.log"), "meta 1\n");

        Properties p = new Properties();
        p.setProperty("canal.port", "0");
        p.setProperty("canal.metrics.pull.port", "0");
        p.setProperty("canal.conf.dir", conf.toString());
        p.setProperty("canal.file.data.dir", conf.toString());
        p.setProperty("canal.destinations", "first,second");
        p.setProperty("canal.admin.port", "0");
        p.setProperty("canal.admin.user", "admin");
        p.setProperty("canal.admin.passwd", AuthScramble.passwordHash(PASSWORD));
        p.setProperty("canal.admin.log.dir", logs.toString());
        starter = CanalStarter.start(new Source(conf.resolve("canal.properties").toString(), p));
    }

    @AfterEach
    void stop() {
        if (starter != null) {
            starter.stop();
        }
    }

    @Test
    void everyServerAndInstanceActionAnswersAsCanalDoes() throws IOException {
        try (AdminPortClient admin = client()) {
            assertThat(admin.server("check")).isEqualTo(ok("1"));
            assertThat(admin.server("list")).isEqualTo(ok("first,second"));

            assertThat(admin.instance("first", "check")).isEqualTo(ok("1"));
            assertThat(admin.instance("first", "stop")).isEqualTo(ok("1"));
            assertThat(admin.instance("first", "check")).isEqualTo(ok("0"));
            assertThat(admin.server("list")).isEqualTo(ok("second"));
            assertThat(admin.instance("first", "start")).isEqualTo(ok("1"));
            assertThat(admin.instance("first", "check")).isEqualTo(ok("1"));
            assertThat(admin.instance("first", "restart")).isEqualTo(ok("1"));
            assertThat(admin.instance("first", "check")).isEqualTo(ok("1"));
            assertThat(admin.instance("first", "release")).isEqualTo(ok("1")); // no ZooKeeper: stops here
            assertThat(admin.instance("first", "check")).isEqualTo(ok("0"));
            assertThat(admin.instance("first", "release")).isEqualTo(ok("0")); // nothing left to give up
            assertThat(admin.instance("first", "start")).isEqualTo(ok("1"));
            assertThat(admin.instance("first", "pause").getCode()).isEqualTo(AdminRequests.ERROR_UNKNOWN_ACTION);
            assertThat(admin.instance("nowhere", "start").getCode()).isEqualTo(AdminRequests.ERROR_FAILED);

            assertThat(admin.server("stop")).isEqualTo(ok("1"));
            assertThat(admin.server("check")).isEqualTo(ok("0"));
            assertThat(admin.server("stop")).isEqualTo(ok("0"));
            assertThat(admin.server("list")).isEqualTo(ok(""));
            assertThat(admin.instance("first", "start")).isEqualTo(ok("0")); // the server is stopped
            assertThat(admin.server("start")).isEqualTo(ok("1"));
            assertThat(admin.server("start")).isEqualTo(ok("0"));
            await().atMost(WAIT).until(() -> admin.server("list").equals(ok("first,second")));
            assertThat(admin.server("restart")).isEqualTo(ok("1"));
            assertThat(admin.server("check")).isEqualTo(ok("1"));
            assertThat(admin.server("reboot").getCode()).isEqualTo(AdminRequests.ERROR_UNKNOWN_ACTION);
        }
    }

    @Test
    void logListsAndTailsAnswerFromTheLogFolders() throws IOException {
        try (AdminPortClient admin = client()) {
            assertThat(admin.log(log("server", "list").build())).isEqualTo(ok("canal.log,canal_stdout.log"));
            assertThat(admin.log(log("server", "tail").setCount(2).build())).isEqualTo(
                    ok("server line 149\nserver line 150\n"));
            assertThat(admin.log(log("server", "tail").build()).getMessage().lines()).hasSize(100)
                    .startsWith("server line 51");
            assertThat(admin.log(log("instance", "list").setDestination("first").build()))
                    .isEqualTo(ok("first.log,meta.log"));
            assertThat(admin.log(log("instance", "tail").setDestination("first").setCount(2).build()))
                    .isEqualTo(ok("first 2\nfirst 3\n"));
            assertThat(admin.log(log("instance", "tail").setDestination("first").setFile("meta.log").build()))
                    .isEqualTo(ok("meta 1\n"));
            assertThat(admin.log(log("instance", "tail").setDestination("first").setFile("../canal/canal.log")
                    .build()).getCode()).isEqualTo(AdminRequests.ERROR_FAILED);
            assertThat(admin.log(log("audit", "list").build()).getCode()).isEqualTo(AdminRequests.ERROR_UNKNOWN_ACTION);
        }
    }

    @Test
    void aWrongPasswordOrUserOrNoLoginIsRefusedWithCode300AndTheConnectionClosed() throws IOException {
        try (AdminPortClient admin = new AdminPortClient(starter.adminPort())) {
            Ack refused = admin.login("admin", "guess");
            assertThat(refused.getCode()).isEqualTo(AdminRequests.ERROR_AUTH);
            assertThat(refused.getMessage()).isEqualTo("auth failed for user:admin");
            assertThat(admin.closedByServer()).isTrue();
        }
        try (AdminPortClient admin = new AdminPortClient(starter.adminPort())) {
            assertThat(admin.login("root", PASSWORD).getCode()).isEqualTo(AdminRequests.ERROR_AUTH);
        }
        try (AdminPortClient admin = new AdminPortClient(starter.adminPort())) {
            Ack refused = admin.server("stop"); // before logging in
            assertThat(refused.getCode()).isEqualTo(AdminRequests.ERROR_AUTH);
            assertThat(admin.closedByServer()).isTrue();
        }
        assertThat(starter.controller().runningDestinations()).containsExactly("first", "second");
    }

    private AdminPortClient client() throws IOException {
        AdminPortClient admin = new AdminPortClient(starter.adminPort());
        assertThat(admin.login("admin", PASSWORD)).isEqualTo(ok(""));
        return admin;
    }

    private static AdminPacket.LogAdmin.Builder log(String type, String action) {
        return AdminPacket.LogAdmin.newBuilder().setType(type).setAction(action);
    }

    private static Ack ok(String message) {
        return Ack.newBuilder().setCode(0).setMessage(message).build();
    }
}
