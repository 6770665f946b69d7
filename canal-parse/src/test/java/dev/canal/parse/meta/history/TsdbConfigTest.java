package dev.canal.parse.meta.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.protocol.config.TypedProperties;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class TsdbConfigTest {

    @Test
    void defaultsAreCanals() {
        TsdbConfig config = TsdbConfig.fromProperties(new TypedProperties(new Properties()), "example");
        assertThat(config.enable()).isTrue();
        assertThat(config.dir()).isEqualTo(Path.of("../conf/example").toAbsolutePath().normalize());
        assertThat(config.snapshotInterval()).isEqualTo(Duration.ofHours(24));
        assertThat(config.snapshotExpiry()).isEqualTo(Duration.ofHours(360));
    }

    @Test
    void keysOverrideDefaultsAndTheDirFollowsTheDataDir() {
        Properties p = new Properties();
        p.setProperty("canal.file.data.dir", "/data");
        p.setProperty("canal.instance.tsdb.enable", "false");
        p.setProperty("canal.instance.tsdb.snapshot.interval", "0");
        p.setProperty("canal.instance.tsdb.snapshot.expire", "48");
        TsdbConfig config = TsdbConfig.fromProperties(new TypedProperties(p), "d1");
        assertThat(config.enable()).isFalse();
        assertThat(config.dir()).isEqualTo(Path.of("/data/d1"));
        assertThat(config.snapshotInterval()).as("0 disables snapshots").isNull();
        assertThat(config.snapshotExpiry()).isEqualTo(Duration.ofHours(48));

        p.setProperty("canal.instance.tsdb.dir", "/elsewhere");
        assertThat(TsdbConfig.fromProperties(new TypedProperties(p), "d1").dir()).isEqualTo(Path.of("/elsewhere"));
    }

    @Test
    void aNegativeIntervalFailsNamingTheKey() {
        Properties p = new Properties();
        p.setProperty("canal.instance.tsdb.snapshot.interval", "-1");
        assertThatThrownBy(() -> TsdbConfig.fromProperties(new TypedProperties(p), "d1"))
                .hasMessageContaining("canal.instance.tsdb.snapshot.interval");
    }

    @Test
    void aMysqlOrMariadbUrlKeepsTheHistoryInThatDatabase() {
        Properties p = new Properties();
        p.setProperty("canal.instance.tsdb.url", "jdbc:mysql://db:3306/canal_tsdb?useSSL=false&password=x");
        p.setProperty("canal.instance.tsdb.dbUsername", "tsdb");
        p.setProperty("canal.instance.tsdb.dbPassword", "secret");
        p.setProperty("canal.instance.tsdb.spring.xml", "classpath:spring/tsdb/mysql-tsdb.xml");
        TsdbConfig config = TsdbConfig.fromProperties(new TypedProperties(p), "d1");
        assertThat(config.shared()).isTrue();
        assertThat(config.database().user()).isEqualTo("tsdb");
        assertThat(config.database().password()).isEqualTo("secret");
        assertThat(config.database().toString()).as("no password, no URL parameters")
                .doesNotContain("secret").doesNotContain("password=x").contains("jdbc:mysql://db:3306/canal_tsdb");

        p.setProperty("canal.instance.tsdb.url", "jdbc:mariadb://db:3306/canal_tsdb");
        assertThat(TsdbConfig.fromProperties(new TypedProperties(p), "d1").database().driverUrl())
                .isEqualTo("jdbc:mysql://db:3306/canal_tsdb");
    }

    @Test
    void theDatabaseAccountDefaultsToCanals() {
        Properties p = new Properties();
        p.setProperty("canal.instance.tsdb.url", "jdbc:mysql://db:3306/canal_tsdb");
        TsdbConfig config = TsdbConfig.fromProperties(new TypedProperties(p), "d1");
        assertThat(config.database().user()).isEqualTo("canal");
        assertThat(config.database().password()).isEqualTo("canal");
    }

    @Test
    void noUrlOrCanalsH2UrlKeepsTheHistoryInLocalFiles() {
        Properties p = new Properties();
        assertThat(TsdbConfig.fromProperties(new TypedProperties(p), "d1").shared()).isFalse();
        p.setProperty("canal.instance.tsdb.url", "jdbc:h2:../conf/d1/h2;CACHE_SIZE=1000;MODE=MYSQL;");
        p.setProperty("canal.instance.tsdb.spring.xml", "classpath:spring/tsdb/h2-tsdb.xml");
        assertThat(TsdbConfig.fromProperties(new TypedProperties(p), "d1").shared()).isFalse();
    }

    @Test
    void theMysqlSpringXmlWithoutAMysqlUrlFailsNamingBothKeys() {
        Properties p = new Properties();
        p.setProperty("canal.instance.tsdb.url", "jdbc:h2:../conf/d1/h2");
        p.setProperty("canal.instance.tsdb.spring.xml", "classpath:spring/tsdb/mysql-tsdb.xml");
        assertThatThrownBy(() -> TsdbConfig.fromProperties(new TypedProperties(p), "d1"))
                .hasMessageContaining("canal.instance.tsdb.url")
                .hasMessageContaining("canal.instance.tsdb.spring.xml");
    }

    @Test
    void aUrlOfAnotherDatabaseFailsNamingTheKey() {
        Properties p = new Properties();
        p.setProperty("canal.instance.tsdb.url", "jdbc:postgresql://db/canal");
        assertThatThrownBy(() -> TsdbConfig.fromProperties(new TypedProperties(p), "d1"))
                .hasMessageContaining("canal.instance.tsdb.url")
                .hasMessageContaining("jdbc:postgresql://db/canal");
    }
}
