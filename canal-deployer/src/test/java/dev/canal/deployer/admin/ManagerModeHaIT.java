package dev.canal.deployer.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.deployer.CanalStarter;
import dev.canal.instance.spring.InstanceProperties.Source;
import dev.canal.protocol.ClientIdentity;
import dev.canal.server.CanalServer;
import dev.canal.server.netty.AuthScramble;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import dev.canal.testsupport.ZooKeeperServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Manager mode behind ZooKeeper: two servers of one canal-admin cluster take the same instance list; the election
 * runs the instance on one of them, a configuration changed in canal-admin is running (on one) after the reload,
 * and an instance removed there stops on both.
 */
@ExtendWith(MySqlServerExtension.class)
class ManagerModeHaIT {

    private static final String SCHEMA = "admin_manager_ha";
    private static final String PASSWORD = "admin";
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path data;

    private final List<CanalStarter> starters = new ArrayList<>();
    private ZooKeeperServer zooKeeper;
    private AdminStandIn admin;

    @AfterEach
    void stopAll() throws Exception {
        starters.forEach(CanalStarter::stop);
        if (admin != null) {
            admin.close();
        }
        if (zooKeeper != null) {
            zooKeeper.close();
        }
    }

    @Test
    void aClusterRunsEachInstanceOnOneServerAndFollowsCanalAdmin(MySqlServer db) throws Exception {
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE " + SCHEMA + ".a (id INT PRIMARY KEY)", "CREATE TABLE " + SCHEMA + ".b (id INT PRIMARY KEY)");
        zooKeeper = ZooKeeperServer.start();
        admin = new AdminStandIn("admin", AuthScramble.passwordHash(PASSWORD), String.join("\n",
                "canal.port = 0",
                "canal.metrics.pull.port = 0",
                "canal.register.ip = 127.0.0.1",
                "canal.zkServers = " + zooKeeper.connectString(),
                "canal.auto.scan = true",
                "canal.auto.scan.interval = 1"));
        admin.putInstance("shared", TableInstance.properties(db, SCHEMA, "a"));
        start("one");
        start("two");

        await().during(Duration.ofSeconds(2)).atMost(WAIT).until(() -> runningOn().size() == 1);
        ClientIdentity client = new ClientIdentity("shared", (short) 1001);
        CanalServer active = runningOn().get(0);
        active.subscribe(client);
        db.execute("INSERT INTO " + SCHEMA + ".a VALUES (1)");
        assertThat(collect(active, client)).containsExactly(SCHEMA + ".a");

        admin.putInstance("shared", TableInstance.properties(db, SCHEMA, "b"));
        await().atMost(WAIT).until(() -> runningOn().size() == 1 && runningOn().get(0).isStart("shared"));
        await().during(Duration.ofSeconds(2)).atMost(WAIT).until(() -> runningOn().size() == 1);
        CanalServer reloaded = runningOn().get(0);
        reloaded.subscribe(client);
        db.execute("INSERT INTO " + SCHEMA + ".a VALUES (2)", "INSERT INTO " + SCHEMA + ".b VALUES (2)");
        assertThat(collect(reloaded, client)).contains(SCHEMA + ".b").doesNotContain(SCHEMA + ".a");

        admin.removeInstance("shared");
        await().atMost(WAIT).until(() -> runningOn().isEmpty()
                && starters.stream().allMatch(s -> s.controller().deployedDestinations().isEmpty()));
    }

    private void start(String name) throws Exception {
        Properties p = new Properties();
        p.setProperty("canal.admin.manager", admin.address());
        p.setProperty("canal.admin.passwd", AuthScramble.passwordHash(PASSWORD));
        p.setProperty("canal.admin.register.name", name);
        Path own = Files.createDirectories(data.resolve(name));
        p.setProperty("canal.conf.dir", own.toString());
        p.setProperty("canal.file.data.dir", own.toString());
        starters.add(CanalStarter.start(new Source(own.resolve("canal_local.properties").toString(), p)));
    }

    private List<CanalServer> runningOn() {
        return starters.stream().map(s -> s.controller().server()).filter(s -> s.isStart("shared")).toList();
    }

    private static List<String> collect(CanalServer server, ClientIdentity client) {
        List<String> tables = new ArrayList<>();
        await().atMost(WAIT).until(() -> {
            tables.addAll(Rows.take(server, client));
            return !tables.isEmpty();
        });
        return tables;
    }
}
