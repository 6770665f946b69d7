package dev.canal.connector.mq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.protocol.config.ConfigValueException;
import dev.canal.server.EmbeddedCanalServer;
import dev.canal.testsupport.TestProperties;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class MqTransactionConfigTest {

    @Test
    void transactionsAreOffByDefaultWithTheShippedTopicAndPrefix() {
        MqTransactionConfig config = MqTransactionConfig.from(new Properties());

        assertThat(config.enabled()).isFalse();
        assertThat(config.cursorTopic()).isEqualTo("canal_cursor");
        assertThat(config.transactionalId("example")).isEqualTo("canal-example");
    }

    @Test
    void transactionalIdIsThePrefixBeforeTheDestinationOnEveryServer() {
        MqTransactionConfig config = MqTransactionConfig.from(TestProperties.of("canal.mq.transaction", "true",
                "canal.mq.transaction.id.prefix", "shop.cdc-"));

        assertThat(config.transactionalId("orders")).isEqualTo("shop.cdc-orders");
    }

    @Test
    void cursorTopicOrPrefixThatKafkaWouldRefuseStopsStartNamingTheKey() {
        assertThatThrownBy(() -> MqTransactionConfig.from(TestProperties.of(
                "canal.mq.transaction.cursor.topic", "cursors/../x")))
                .isInstanceOf(ConfigValueException.class).hasMessageContaining("canal.mq.transaction.cursor.topic");
        assertThatThrownBy(() -> MqTransactionConfig.from(TestProperties.of(
                "canal.mq.transaction.id.prefix", "a b")))
                .isInstanceOf(ConfigValueException.class).hasMessageContaining("canal.mq.transaction.id.prefix");
    }

    @Test
    void transactionsAskedOfABrokerWithoutThemStopStartNamingTheKey() {
        MqMode withoutTransactions = new MqMode() {
            @Override
            public String name() {
                return "plain";
            }

            @Override
            public MqProducer producer(Properties serverProperties) {
                throw new AssertionError("no producer is built when the settings are refused");
            }
        };
        EmbeddedCanalServer server = new EmbeddedCanalServer(destination -> null);

        assertThatThrownBy(() -> MqWorkers.create(server, withoutTransactions,
                TestProperties.of("canal.mq.transaction", "true")))
                .isInstanceOf(ConfigValueException.class)
                .hasMessageContaining("canal.mq.transaction")
                .hasMessageContaining("plain mode has no transactions");
    }
}
