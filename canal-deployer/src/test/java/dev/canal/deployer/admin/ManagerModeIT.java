package dev.canal.deployer.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import dev.canal.deployer.CanalStarter;
import dev.canal.deployer.ConfigException;
import dev.canal.instance.spring.InstanceProperties.Source;
import dev.canal.protocol.ClientIdentity;
import dev.canal.server.CanalServer;
import dev.canal.server.netty.AuthScramble;
import dev.canal.testsupport.LogCapture;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * canal-admin's manager mode against a stand-in of canal-admin's polling endpoints: the server registers, takes
 * canal.properties and its instances from the stand-in, runs them against the test database, and follows the
 * changes an operator makes there; a canal-admin that answers badly, goes away or refuses the credentials never
 * stops what runs.
 */
@ExtendWith(MySqlServerExtension.class)
class ManagerModeIT {

    private static final String SCHEMA = "admin_manager";
    private static final String PASSWORD = "admin";
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path data;

    private AdminStandIn admin;
    private CanalStarter starter;
    private LogCapture logs;

    @BeforeEach
    void standIn(MySqlServer db) throws Exception {
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE " + SCHEMA + ".a (id INT PRIMARY KEY)", "CREATE TABLE " + SCHEMA + ".b (id INT PRIMARY KEY)",
                "CREATE TABLE " + SCHEMA + ".c (id INT PRIMARY KEY)");
        admin = new AdminStandIn("admin", AuthScramble.passwordHash(PASSWORD), String.join("\n",
                "canal.port = 0",
                "canal.metrics.pull.port = 0",
                "canal.conf.dir = " + data,
                "canal.file.data.dir = " + data,
                "canal.auto.scan = true",
                "canal.auto.scan.interval = 1",
                "canal.instance.global.mode = manager",
                "canal.instance.global.manager.address = ${canal.admin.manager}",
                "canal.instance.global.spring.xml = classpath:spring/file-instance.xml"));
        logs = LogCapture.attachToRoot();
    }

    @AfterEach
    void stopAll() {
        if (starter != null) {
            starter.stop();
        }
        admin.close();
        logs.close();
    }

    @Test
    void registersPullsRunsAndFollowsTheInstancesHeldInCanalAdmin(MySqlServer db) throws Exception {
        admin.putInstance("first", instance(db, "a"));
        admin.putInstance("second", instance(db, "b"));

        starter = CanalStarter.start(local("canal.admin.register.auto", "true", "canal.admin.register.cluster", "blue",
                "canal.admin.register.name", "node-1"));

        Map<String, String> registration = admin.serverPolls().get(0);
        assertThat(registration).containsEntry("ip", "127.0.0.1").containsEntry("port", "11110")
                .containsEntry("register", "1").containsEntry("cluster", "blue").containsEntry("name", "node-1")
                .containsEntry("md5", "");
        CanalServer server = starter.controller().server();
        assertThat(starter.controller().runningDestinations()).containsExactly("first", "second");
        ClientIdentity first = subscribe(server, "first");
        ClientIdentity second = subscribe(server, "second");
        db.execute("INSERT INTO " + SCHEMA + ".a VALUES (1)", "INSERT INTO " + SCHEMA + ".b VALUES (1)",
                "INSERT INTO " + SCHEMA + ".c VALUES (1)");
        assertThat(collect(server, first, 1)).containsExactly(SCHEMA + ".a");
        assertThat(collect(server, second, 1)).containsExactly(SCHEMA + ".b");

        // the operator points "second" at table c in canal-admin: it restarts with that configuration
        admin.putInstance("second", instance(db, "c"));
        await().atMost(WAIT).until(() -> count("started the instance of destination second") == 2
                && server.isStart("second"));
        assertThat(logged("destination second: its configuration changed in canal-admin")).isTrue();
        ClientIdentity reloaded = subscribe(server, "second");
        db.execute("INSERT INTO " + SCHEMA + ".b VALUES (2)", "INSERT INTO " + SCHEMA + ".c VALUES (2)");
        // the row of c written before the reload may come too: the reloaded instance starts at the cursor "second"
        // acked, which may lie before it (at least once)
        assertThat(collect(server, reloaded, 1)).containsOnly(SCHEMA + ".c");

        // ... and deletes "first": it stops, "second" runs on
        admin.removeInstance("first");
        await().atMost(WAIT).until(() -> !server.isStart("first"));
        assertThat(starter.controller().runningDestinations()).containsExactly("second");
        assertThat(starter.controller().deployedDestinations()).containsExactly("second");
    }

    @Test
    void badAnswersAnUnreachableAdminAndRefusedCredentialsLeaveRunningInstancesRunning(MySqlServer db)
            throws Exception {
        admin.putInstance("first", instance(db, "a"));
        starter = CanalStarter.start(local());
        CanalServer server = starter.controller().server();
        assertThat(server.isStart("first")).isTrue();

        admin.passwordHash(AuthScramble.passwordHash("changed in canal-admin"));
        await().atMost(WAIT).until(() -> logged("refused the request (code 50000): auth :admin is failed"));
        admin.passwordHash(AuthScramble.passwordHash(PASSWORD));
        admin.mode(AdminStandIn.Mode.NOT_JSON);
        await().atMost(WAIT).until(() -> logged("answered something that is not JSON: <html>maintenance</html>"));
        admin.mode(AdminStandIn.Mode.HTTP_500);
        await().atMost(WAIT).until(() -> logged("answered HTTP 500"));
        admin.close();
        await().atMost(WAIT).until(() -> logged("is unreachable (canal.admin.manager)"));

        assertThat(server.isStart("first")).isTrue();
        ClientIdentity client = subscribe(server, "first");
        db.execute("INSERT INTO " + SCHEMA + ".a VALUES (10)");
        assertThat(collect(server, client, 1)).containsExactly(SCHEMA + ".a");
    }

    @Test
    void refusedCredentialsStopStartUpNamingTheKeys() {
        assertThatThrownBy(() -> CanalStarter.start(local("canal.admin.passwd", AuthScramble.passwordHash("wrong"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("auth :admin is failed")
                .hasMessageContaining("canal.admin.user / canal.admin.passwd");
    }

    @Test
    void aManagerWithoutPasswordStopsStartUpNamingTheKey() {
        assertThatThrownBy(() -> CanalStarter.start(local("canal.admin.passwd", "")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("key canal.admin.passwd");
    }

    /** canal_local.properties: canal-admin's address and credentials, this server's identity. */
    private Source local(String... keyValues) {
        Properties p = new Properties();
        p.setProperty("canal.register.ip", "127.0.0.1");
        p.setProperty("canal.admin.manager", admin.address());
        p.setProperty("canal.admin.user", "admin");
        p.setProperty("canal.admin.passwd", AuthScramble.passwordHash(PASSWORD));
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return new Source(data.resolve("canal_local.properties").toString(), p);
    }

    private static String instance(MySqlServer db, String table) {
        return TableInstance.properties(db, SCHEMA, table);
    }

    private static ClientIdentity subscribe(CanalServer server, String destination) {
        ClientIdentity client = new ClientIdentity(destination, (short) 1001);
        server.subscribe(client);
        return client;
    }

    /** The tables of the next {@code rows} row entries the client gets. */
    private static List<String> collect(CanalServer server, ClientIdentity client, int rows) {
        List<String> tables = new ArrayList<>();
        await().atMost(WAIT).until(() -> {
            tables.addAll(Rows.take(server, client));
            return tables.size() >= rows;
        });
        return tables;
    }

    private long count(String line) {
        return logs.messages().stream().filter(line::equals).count();
    }

    private boolean logged(String text) {
        return logs.events().stream().anyMatch(e -> e.getLevel().isGreaterOrEqual(Level.INFO)
                && e.getFormattedMessage().contains(text));
    }
}
