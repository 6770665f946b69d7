package dev.canal.connector.mq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.protocol.config.ConfigValueException;
import dev.canal.testsupport.TestProperties;
import org.junit.jupiter.api.Test;

class MqConfigTest {

    @Test
    void defaultsAreCanals() {
        MqConfig config = MqConfig.from(TestProperties.of("canal.mq.topic", "example"));

        assertThat(config.flatMessage()).isTrue();
        assertThat(config.canalBatchSize()).isEqualTo(50);
        assertThat(config.canalGetTimeoutMs()).isEqualTo(100);
        assertThat(config.partition()).isZero();
        assertThat(config.partitionsNum()).isEqualTo(1);
        assertThat(config.databaseHash()).isTrue();
        assertThat(config.partitionHash().isEmpty()).isTrue();
        assertThat(config.dynamicTopic().isEmpty()).isTrue();
        assertThat(config.filterTransactionEntry()).isFalse();
    }

    @Test
    void blankValuesCountAsMissing() {
        MqConfig config = MqConfig.from(TestProperties.of("canal.mq.topic", " example ", "canal.mq.partitionsNum", " "));

        assertThat(config.topic()).isEqualTo("example");
        assertThat(config.partitionsNum()).isEqualTo(1);
    }

    @Test
    void invalidValuesNameTheirKey() {
        assertThatThrownBy(() -> MqConfig.from(TestProperties.of())).hasMessageContaining("canal.mq.topic");
        assertThatThrownBy(() -> MqConfig.from(TestProperties.of("canal.mq.topic", "t", "canal.mq.partitionsNum", "0")))
                .isInstanceOf(ConfigValueException.class).hasMessageContaining("canal.mq.partitionsNum");
        assertThatThrownBy(() -> MqConfig.from(TestProperties.of("canal.mq.topic", "t", "canal.mq.flatMessage", "yes")))
                .isInstanceOf(ConfigValueException.class).hasMessageContaining("canal.mq.flatMessage");
        assertThatThrownBy(() -> MqConfig.from(TestProperties.of("canal.mq.topic", "t", "canal.mq.canalBatchSize", "x")))
                .isInstanceOf(ConfigValueException.class).hasMessageContaining("canal.mq.canalBatchSize");
    }

    @Test
    void withoutPartitionHashPutsEverythingOnPartitionZeroAndKeepsTheRest() {
        MqConfig hashed = MqConfig.from(TestProperties.of("canal.mq.topic", "t", "canal.mq.partition", "2",
                "canal.mq.partitionsNum", "3", "canal.mq.partitionHash", "test.user:$pk$",
                "canal.mq.dynamicTopicPartitionNum", "t:5", "canal.mq.flatMessage", "false"));

        MqConfig flat = hashed.withoutPartitionHash();

        assertThat(flat.partitionHash().isEmpty()).isTrue();
        assertThat(flat.partition()).isZero();
        assertThat(flat.partitionsFor("t")).isEqualTo(1);
        assertThat(flat.topic()).isEqualTo("t");
        assertThat(flat.flatMessage()).isFalse();
    }
}
