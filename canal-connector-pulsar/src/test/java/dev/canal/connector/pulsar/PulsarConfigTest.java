package dev.canal.connector.pulsar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.protocol.config.ConfigValueException;
import dev.canal.testsupport.TestProperties;
import org.junit.jupiter.api.Test;

class PulsarConfigTest {

    @Test
    void readsCanalKeysWithOurSendTimeoutDefault() {
        PulsarConfig config = PulsarConfig.from(TestProperties.of("pulsarmq.serverUrl", " pulsar://10.0.0.1:6650 ",
                "pulsarmq.roleToken", "tok", "pulsarmq.topicTenantPrefix", "persistent://t/ns"));

        assertThat(config.serverUrl()).isEqualTo("pulsar://10.0.0.1:6650");
        assertThat(config.roleToken()).isEqualTo("tok");
        assertThat(config.sendTimeoutMs()).isEqualTo(30_000);
    }

    @Test
    void emptyServerUrlStopsStartUpCarryingTheKey() {
        assertThatThrownBy(() -> PulsarConfig.from(TestProperties.of("pulsarmq.serverUrl", "")))
                .isInstanceOfSatisfying(ConfigValueException.class,
                        e -> assertThat(e.key()).isEqualTo("pulsarmq.serverUrl"))
                .hasMessageContaining("missing value for pulsarmq.serverUrl");
    }

    @Test
    void serverUrlWithoutAPulsarSchemeIsRejectedNamingTheKey() {
        assertThatThrownBy(() -> PulsarConfig.from(TestProperties.of("pulsarmq.serverUrl", "127.0.0.1:6650")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'127.0.0.1:6650' for pulsarmq.serverUrl");
    }

    @Test
    void sendTimeoutBelowOneIsRejectedNamingTheKey() {
        assertThatThrownBy(() -> PulsarConfig.from(TestProperties.of("pulsarmq.serverUrl", "pulsar://h:6650",
                "pulsarmq.send.timeout", "0")))
                .hasMessageContaining("pulsarmq.send.timeout");
    }

    @Test
    void tenantPrefixIsJoinedToTheTopicWithOneSlashAsCanalDoes() {
        assertThat(config("").fullTopic("orders")).isEqualTo("orders");
        assertThat(config("persistent://shop/cdc").fullTopic("orders")).isEqualTo("persistent://shop/cdc/orders");
        assertThat(config("persistent://shop/cdc/").fullTopic("orders")).isEqualTo("persistent://shop/cdc/orders");
    }

    private static PulsarConfig config(String prefix) {
        return PulsarConfig.from(TestProperties.of("pulsarmq.serverUrl", "pulsar://h:6650",
                "pulsarmq.topicTenantPrefix", prefix));
    }
}
