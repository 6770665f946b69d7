package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import dev.canal.testsupport.TcpPorts;
import dev.canal.testsupport.UnpackedTarball;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code bin/startup.sh} tells a new user of the packaged server: for each destination, that it streams from its
 * source or why it does not, and a misspelled key with the key it was meant to be. A destination that cannot log in
 * raises one ALARM with its remedy, then retries quietly.
 */
@ExtendWith(MySqlServerExtension.class)
class StartupReportIT {

    @TempDir
    Path home;

    private UnpackedTarball canal;

    @BeforeEach
    void unpack() throws Exception {
        canal = UnpackedTarball.unpack(UnpackedTarball.built(Path.of("target"), "canal-deployer-.*\\.tar\\.gz"), home);
    }

    @AfterEach
    void stop() throws Exception {
        if (Files.exists(canal.pidFile())) {
            canal.run("stop.sh");
        }
    }

    @Test
    void startupSaysWhichDestinationsStreamWhyTheOthersDoNotAndWhichKeyIsMisspelt(MySqlServer db) throws Exception {
        String source = db.host() + ":" + db.port();
        destination("good", source, db.replicationUser(), db.replicationPassword());
        destination("badpass", source, db.replicationUser(), "not-the-password");
        // MySQL 8+ checks a password it has not cached only over TLS or with its RSA key
        canal.edit("conf/badpass/instance.properties",
                text -> text + "\ncanal.instance.master.allowPublicKeyRetrieval = true\n");
        destination("nohost", "no-such-host.invalid:3306", db.replicationUser(), db.replicationPassword());
        canal.edit("conf/canal.properties", text -> text
                .replace("canal.port = 11111", "canal.port = " + TcpPorts.free())
                .replace("canal.metrics.pull.port = 11112", "canal.metrics.pull.port = " + TcpPorts.free())
                .replace("canal.destinations = example", "canal.destinations = good,badpass,nohost")
                .replace("canal.auto.scan = true", "canal.auto.scan = false")
                + "\ncanal.prot = 11111\n");
        long failedLoginsBefore = abortedConnects(db);

        UnpackedTarball.Run startup = canal.run("startup.sh");

        assertThat(startup.status()).as("%s%n%s", startup.output(), canal.logs()).isZero();
        assertThat(startup.output()).contains(
                "destination good: streaming from " + source + " at ",
                "destination badpass: cannot read " + source + ": Access denied for user '" + db.replicationUser(),
                "check canal.instance.dbUsername and canal.instance.dbPassword",
                "destination nohost: cannot read no-such-host.invalid:3306: unknown host no-such-host.invalid; check "
                        + "the host in canal.instance.master.address",
                "unknown key canal.prot (" + home.resolve("conf/canal.properties") + "), did you mean canal.port?",
                "canal server started");

        // the refused destination keeps trying, quietly: one ALARM, no stack trace, however many attempts
        await().atMost(Duration.ofSeconds(60)).until(() -> abortedConnects(db) >= failedLoginsBefore + 3);
        String badpassLog = canal.log("logs/badpass/badpass.log");
        assertThat(badpassLog.lines().filter(line -> line.contains("ALARM"))).singleElement().asString()
                .contains("GRANT SELECT, REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO");
        assertThat(badpassLog).doesNotContain("\tat ");
    }

    private void destination(String name, String address, String user, String password) throws Exception {
        Path dir = Files.createDirectories(home.resolve("conf").resolve(name));
        Files.copy(home.resolve("conf/example/instance.properties"), dir.resolve("instance.properties"));
        canal.edit("conf/" + name + "/instance.properties", text -> text
                .replace("canal.instance.master.address = 127.0.0.1:3306", "canal.instance.master.address = " + address)
                .replace("canal.instance.dbUsername = canal", "canal.instance.dbUsername = " + user)
                .replace("canal.instance.dbPassword = canal", "canal.instance.dbPassword = " + password));
    }

    /** Failed logins the source counted. */
    private static long abortedConnects(MySqlServer db) throws Exception {
        try (Connection c = db.adminConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS LIKE 'Aborted_connects'")) {
            rs.next();
            return rs.getLong(2);
        }
    }
}
