package dev.canal.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.protocol.config.ConfigValueException;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ServerConfigTest {

    @Test
    void defaultsListenOnEveryInterfaceAtPort11111WithoutAuthentication() {
        ServerConfig config = ServerConfig.fromProperties(new Properties());

        assertThat(config.ip()).isEmpty();
        assertThat(config.port()).isEqualTo(11111);
        assertThat(config.user()).isEmpty();
        assertThat(config.passwordHash()).isEmpty();
    }

    @Test
    void readsCanalKeys() {
        Properties properties = new Properties();
        properties.setProperty("canal.ip", " 127.0.0.1 ");
        properties.setProperty("canal.port", "11122");
        properties.setProperty("canal.user", "canal");
        properties.setProperty("canal.passwd", "E3619321C1A937C46A0D8BD1DAC39F93B27D4458");

        ServerConfig config = ServerConfig.fromProperties(properties);

        assertThat(config).extracting(ServerConfig::ip, ServerConfig::port, ServerConfig::user)
                .containsExactly("127.0.0.1", 11122, "canal");
        assertThat(config.toString()).doesNotContain("E3619321");
    }

    @Test
    void userWithoutPasswordStopsStartUpAsInCanal118() {
        Properties properties = new Properties();
        properties.setProperty("canal.user", "canal");
        properties.setProperty("canal.passwd", "");

        assertThatThrownBy(() -> ServerConfig.fromProperties(properties))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("canal.passwd").hasMessageContaining("anyone");
    }

    @Test
    void passwordThatIsNoDoubleSha1HexIsRejectedCarryingTheKeyButNotTheSecret() {
        assertThatThrownBy(() -> ServerConfig.open(0).withCredentials("canal", "notahash"))
                .isInstanceOfSatisfying(ConfigValueException.class, e -> {
                    assertThat(e.key()).isEqualTo("canal.passwd");
                    assertThat(e.value()).isNull();
                })
                .hasMessageContaining("canal.passwd").hasMessageNotContaining("notahash");
    }

    @Test
    void badPortIsRejectedNamingTheKey() {
        Properties properties = new Properties();
        properties.setProperty("canal.port", "eleven");

        assertThatThrownBy(() -> ServerConfig.fromProperties(properties)).hasMessageContaining("canal.port");
        assertThatThrownBy(() -> new ServerConfig("", 70000, "", "", ClientLimits.defaults())).hasMessageContaining("canal.port");
    }

    @Test
    void authDeadlineAndConnectionCapHaveDefaultsAndAreRead() {
        Properties properties = new Properties();
        assertThat(ServerConfig.fromProperties(properties)).extracting(ServerConfig::authTimeoutMillis,
                ServerConfig::maxConnections).containsExactly(10_000, 4096);

        properties.setProperty("canal.client.auth.timeout", "2500");
        properties.setProperty("canal.client.max.connections", "50");

        assertThat(ServerConfig.fromProperties(properties)).extracting(ServerConfig::authTimeoutMillis,
                ServerConfig::maxConnections).containsExactly(2500, 50);
    }

    @Test
    void badAuthDeadlineOrConnectionCapIsRejectedNamingTheKey() {
        Properties properties = new Properties();
        properties.setProperty("canal.client.auth.timeout", "soon");
        assertThatThrownBy(() -> ServerConfig.fromProperties(properties)).hasMessageContaining("canal.client.auth.timeout");
        properties.setProperty("canal.client.auth.timeout", "0");
        assertThatThrownBy(() -> ServerConfig.fromProperties(properties)).hasMessageContaining("canal.client.auth.timeout");
        properties.remove("canal.client.auth.timeout");
        properties.setProperty("canal.client.max.connections", "-1");
        assertThatThrownBy(() -> ServerConfig.fromProperties(properties))
                .hasMessageContaining("canal.client.max.connections");
    }
}
