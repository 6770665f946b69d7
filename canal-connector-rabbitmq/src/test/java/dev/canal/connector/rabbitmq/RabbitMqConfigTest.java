package dev.canal.connector.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.testsupport.TestProperties;
import org.junit.jupiter.api.Test;

class RabbitMqConfigTest {

    @Test
    void canalsEmptyDefaultsMeanLocalBrokerGuestLoginDefaultVhostDirectExchangeAndNoMandatory() {
        RabbitMqConfig config = RabbitMqConfig.from(TestProperties.of("rabbitmq.host", "", "rabbitmq.exchange", ""));

        assertThat(config).isEqualTo(new RabbitMqConfig("127.0.0.1", 5672, "/", "", "guest", "guest", "", "", "direct",
                30_000, false));
    }

    @Test
    void hostTakesAnOptionalPortAndEveryCanalKeyIsRead() {
        RabbitMqConfig config = RabbitMqConfig.from(TestProperties.of("rabbitmq.host", "mq.example:5673",
                "rabbitmq.virtual.host", "canal", "rabbitmq.exchange", "ex", "rabbitmq.username", "u",
                "rabbitmq.password", "p", "rabbitmq.queue", "q", "rabbitmq.routingKey", "rk",
                "rabbitmq.deliveryMode", "fanout", "rabbitmq.confirm.timeout", "500", "rabbitmq.mandatory", "true"));

        assertThat(config).isEqualTo(new RabbitMqConfig("mq.example", 5673, "canal", "ex", "u", "p", "q", "rk",
                "fanout", 500, true));
        assertThat(config.address()).isEqualTo("mq.example:5673 vhost canal").doesNotContain("p@");
    }

    @Test
    void legacyServersKeyFillsAnEmptyHost() {
        assertThat(RabbitMqConfig.from(TestProperties.of("canal.mq.servers", "old:5674")).port()).isEqualTo(5674);
        assertThat(RabbitMqConfig.from(TestProperties.of("canal.mq.servers", "old", "rabbitmq.host", "new")).host())
                .isEqualTo("new");
    }

    @Test
    void badPortOrTimeoutIsRefusedNamingTheKey() {
        assertThatThrownBy(() -> RabbitMqConfig.from(TestProperties.of("rabbitmq.host", "h:port")))
                .hasMessageContaining("rabbitmq.host");
        assertThatThrownBy(() -> RabbitMqConfig.from(TestProperties.of("rabbitmq.host", "h:70000")))
                .hasMessageContaining("rabbitmq.host");
        assertThatThrownBy(() -> RabbitMqConfig.from(TestProperties.of("rabbitmq.confirm.timeout", "0")))
                .hasMessageContaining("rabbitmq.confirm.timeout");
    }
}
