package dev.canal.connector.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.testsupport.TestProperties;
import org.junit.jupiter.api.Test;

class KafkaProducerConfigTest {

    @Test
    void everyKafkaKeyReachesTheProducerWithoutItsPrefix() {
        KafkaProducerConfig config = KafkaProducerConfig.from(TestProperties.of("kafka.bootstrap.servers", "10.0.0.1:9092",
                "kafka.compression.type", "lz4", "kafka.client.id", "canal", "canal.mq.topic", "example"));

        assertThat(config.producerProperties()).containsEntry("bootstrap.servers", "10.0.0.1:9092")
                .containsEntry("compression.type", "lz4").containsEntry("client.id", "canal")
                .doesNotContainKey("canal.mq.topic").doesNotContainKey("mq.topic");
    }

    @Test
    void canalsShippedValuesAreTheDefaultsAndDeliveryIsForcedSafe() {
        KafkaProducerConfig config = KafkaProducerConfig.from(TestProperties.of("kafka.retries", "0",
                "kafka.max.in.flight.requests.per.connection", "5"));

        assertThat(config.producerProperties()).containsEntry("bootstrap.servers", "127.0.0.1:9092")
                .containsEntry("acks", "all").containsEntry("enable.idempotence", "true")
                .containsEntry("max.in.flight.requests.per.connection", "1").containsEntry("linger.ms", "1")
                .containsEntry("batch.size", "16384").containsEntry("max.request.size", "1048576")
                .containsEntry("buffer.memory", "33554432").doesNotContainKey("retries");
    }

    @Test
    void legacyKeysFillInWhereTheNewKeyIsAbsent() {
        KafkaProducerConfig config = KafkaProducerConfig.from(TestProperties.of("canal.mq.servers", "old:9092",
                "canal.mq.lingerMs", "5", "kafka.linger.ms", "7"));

        assertThat(config.producerProperties()).containsEntry("bootstrap.servers", "old:9092")
                .containsEntry("linger.ms", "7");
    }

    @Test
    void weakerDeliverySettingsAreRejectedNamingTheKey() {
        assertThatThrownBy(() -> KafkaProducerConfig.from(TestProperties.of("kafka.acks", "1"))).hasMessageContaining("kafka.acks");
        assertThatThrownBy(() -> KafkaProducerConfig.from(TestProperties.of("kafka.enable.idempotence", "false")))
                .hasMessageContaining("kafka.enable.idempotence");
    }

    @Test
    void kerberosSwitchesToSaslWithoutPassingItsOwnKeys() {
        KafkaProducerConfig config = KafkaProducerConfig.from(TestProperties.of("kafka.kerberos.enable", "true",
                "kafka.kerberos.krb5.file", "/etc/krb5.conf"));

        assertThat(config.producerProperties()).containsEntry("security.protocol", "SASL_PLAINTEXT")
                .doesNotContainKey("kerberos.enable").doesNotContainKey("kerberos.krb5.file");
    }
}
