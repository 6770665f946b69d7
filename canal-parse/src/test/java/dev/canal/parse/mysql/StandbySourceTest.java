package dev.canal.parse.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.testsupport.TestProperties;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class StandbySourceTest {

    private static Properties master(String... more) {
        Properties p = TestProperties.of(more);
        p.setProperty("canal.instance.master.address", "primary.example:3306");
        return p;
    }

    @Test
    void withoutAStandbyAddressThereIsNothingToSwitchTo() {
        MysqlParserConfig config = MysqlParserConfig.fromProperties(master());

        assertThat(config.standby().source()).isNull();
        assertThat(config.standby().switchOnFailedHeartbeat()).isFalse();
        assertThat(new ActiveSource(config).hasStandby()).isFalse();
        assertThat(new ActiveSource(config).swap()).as("no switch without a standby").isNull();
    }

    @Test
    void theStandbyTakesItsAddressAndStartFromTheStandbyKeys() {
        MysqlParserConfig config = MysqlParserConfig.fromProperties(master(
                "canal.instance.standby.address", "replica.example:3307",
                "canal.instance.standby.journal.name", "mysql-bin.000007",
                "canal.instance.standby.position", "1234",
                "canal.instance.standby.timestamp", "1700000000000",
                "canal.instance.standby.gtid", "uuid:1-5",
                "canal.instance.detecting.heartbeatHaEnable", "true"));

        SourceEndpoint standby = config.standby().source();
        assertThat(standby.host()).isEqualTo("replica.example");
        assertThat(standby.port()).isEqualTo(3307);
        assertThat(standby.start()).isEqualTo(new MysqlParserConfig.StartPosition("mysql-bin.000007", 1234L,
                1700000000000L, "uuid:1-5"));
        assertThat(config.standby().switchOnFailedHeartbeat()).isTrue();
    }

    @Test
    void eachSwitchSwapsMasterAndStandbySoTheNextOneGoesBack() {
        ActiveSource sources = new ActiveSource(MysqlParserConfig.fromProperties(master(
                "canal.instance.standby.address", "replica.example:3307")));

        assertThat(sources.current()).hasToString("primary.example:3306");
        assertThat(sources.swap()).hasToString("replica.example:3307");
        assertThat(sources.current().connector().options().port()).isEqualTo(3307);
        assertThat(sources.swap()).hasToString("primary.example:3306");
    }

    @Test
    void aStandbyAddressWithoutAPortIsRejectedNamingTheKey() {
        assertThatThrownBy(() -> MysqlParserConfig.fromProperties(master(
                "canal.instance.standby.address", "replica.example")))
                .hasMessageContaining("canal.instance.standby.address").hasMessageContaining("host:port");
    }
}
