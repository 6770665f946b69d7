package dev.canal.connector.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import dev.canal.testsupport.LogCapture;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class KafkaProducerConfigTest {

    private static Properties props(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    @Test
    void everyKafkaKeyReachesTheProducerWithoutItsPrefix() {
        KafkaProducerConfig config = KafkaProducerConfig.from(props("kafka.bootstrap.servers", "10.0.0.1:9092",
                "kafka.compression.type", "lz4", "kafka.client.id", "canal", "canal.mq.topic", "example"));

        assertThat(config.producerProperties()).containsEntry("bootstrap.servers", "10.0.0.1:9092")
                .containsEntry("compression.type", "lz4").containsEntry("client.id", "canal")
                .doesNotContainKey("canal.mq.topic").doesNotContainKey("mq.topic");
    }

    @Test
    void canalsShippedValuesAreTheDefaultsAndDeliveryIsForcedSafe() {
        KafkaProducerConfig config = KafkaProducerConfig.from(props("kafka.retries", "0",
                "kafka.max.in.flight.requests.per.connection", "5"));

        assertThat(config.producerProperties()).containsEntry("bootstrap.servers", "127.0.0.1:9092")
                .containsEntry("acks", "all").containsEntry("enable.idempotence", "true")
                .containsEntry("max.in.flight.requests.per.connection", "1").containsEntry("linger.ms", "1")
                .containsEntry("batch.size", "16384").containsEntry("max.request.size", "1048576")
                .containsEntry("buffer.memory", "33554432").doesNotContainKey("retries");
    }

    @Test
    void legacyKeysFillInWhereTheNewKeyIsAbsent() {
        KafkaProducerConfig config = KafkaProducerConfig.from(props("canal.mq.servers", "old:9092",
                "canal.mq.lingerMs", "5", "kafka.linger.ms", "7"));

        assertThat(config.producerProperties()).containsEntry("bootstrap.servers", "old:9092")
                .containsEntry("linger.ms", "7");
    }

    @Test
    void acksOtherThanAllIsAcceptedWithoutIdempotenceAndWarnedAboutNamingTheKey() {
        List<String> warnings = warningsOf(() -> {
            assertThat(KafkaProducerConfig.from(props("kafka.acks", "1", "kafka.retries", "0")).producerProperties())
                    .containsEntry("acks", "1").containsEntry("enable.idempotence", "false")
                    .containsEntry("retries", "0");
            assertThat(KafkaProducerConfig.from(props("canal.mq.acks", "0")).producerProperties())
                    .containsEntry("acks", "0").containsEntry("enable.idempotence", "false");
        });

        assertThat(warnings).hasSize(2);
        assertThat(warnings.get(0)).startsWith("kafka.acks=1:").contains("lost");
        assertThat(warnings.get(1)).startsWith("canal.mq.acks=0:").contains("lost");
    }

    @Test
    void idempotenceSwitchedOffIsAcceptedAndKeepsCanalsZeroRetries() {
        List<String> warnings = warningsOf(() -> assertThat(KafkaProducerConfig.from(props(
                "kafka.enable.idempotence", "false", "kafka.retries", "0")).producerProperties())
                .containsEntry("acks", "all").containsEntry("enable.idempotence", "false")
                .containsEntry("retries", "0"));

        assertThat(warnings).as("nothing is lost: a failed batch is rolled back and sent again").isEmpty();
    }

    @Test
    void settingsKafkaWouldRefuseFailNamingTheKey() {
        assertThatThrownBy(() -> KafkaProducerConfig.from(props("kafka.acks", "2"))).hasMessageContaining("kafka.acks");
        assertThatThrownBy(() -> KafkaProducerConfig.from(props("kafka.enable.idempotence", "yes")))
                .hasMessageContaining("kafka.enable.idempotence");
        assertThatThrownBy(() -> KafkaProducerConfig.from(props("kafka.acks", "1", "kafka.enable.idempotence", "true")))
                .hasMessageContaining("kafka.enable.idempotence").hasMessageContaining("true needs kafka.acks=all");
    }

    /** The warnings the action logs from the producer config. */
    private static List<String> warningsOf(Runnable action) {
        try (LogCapture logs = LogCapture.attach(KafkaProducerConfig.class.getName())) {
            action.run();
            return logs.messages(Level.WARN);
        }
    }

    @Test
    void kerberosSwitchesToSaslWithoutPassingItsOwnKeys() {
        KafkaProducerConfig config = KafkaProducerConfig.from(props("kafka.kerberos.enable", "true",
                "kafka.kerberos.krb5.file", "/etc/krb5.conf"));

        assertThat(config.producerProperties()).containsEntry("security.protocol", "SASL_PLAINTEXT")
                .doesNotContainKey("kerberos.enable").doesNotContainKey("kerberos.krb5.file");
    }
}
