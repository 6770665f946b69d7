package dev.canal.server.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    void userWithoutPasswordStopsStartUpAsSinceIssue4941() {
        Properties properties = new Properties();
        properties.setProperty("canal.user", "canal");
        properties.setProperty("canal.passwd", "");

        assertThatThrownBy(() -> ServerConfig.fromProperties(properties))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("canal.passwd").hasMessageContaining("4941");
    }

    @Test
    void passwordThatIsNoDoubleSha1HexIsRejectedNamingTheKey() {
        assertThatThrownBy(() -> ServerConfig.open(0).withCredentials("canal", "canal"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("canal.passwd");
    }

    @Test
    void badPortIsRejectedNamingTheKey() {
        Properties properties = new Properties();
        properties.setProperty("canal.port", "eleven");

        assertThatThrownBy(() -> ServerConfig.fromProperties(properties)).hasMessageContaining("canal.port");
        assertThatThrownBy(() -> new ServerConfig("", 70000, "", "", 1024)).hasMessageContaining("canal.port");
    }
}
