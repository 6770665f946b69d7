package dev.canal.connector.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.testsupport.TestProperties;
import org.junit.jupiter.api.Test;

class RocketMqConfigTest {

    @Test
    void canalsDefaultsAreGroupTestLocalNameServerNoRetryNoVipChannelNoTag() {
        RocketMqConfig config = RocketMqConfig.from(TestProperties.of("rocketmq.tag", ""));

        assertThat(config).isEqualTo(new RocketMqConfig("test", "127.0.0.1:9876", "", false, "", 0, false, "", 3000));
    }

    @Test
    void everyCanalKeyIsRead() {
        RocketMqConfig config = RocketMqConfig.from(TestProperties.of("rocketmq.producer.group", "g",
                "rocketmq.namesrv.addr", "a:9876;b:9876", "rocketmq.namespace", "ns",
                "rocketmq.enable.message.trace", "true", "rocketmq.customized.trace.topic", "trace",
                "rocketmq.retry.times.when.send.failed", "2", "rocketmq.vip.channel.enabled", "true",
                "rocketmq.tag", "canal", "rocketmq.send.timeout", "500"));

        assertThat(config).isEqualTo(new RocketMqConfig("g", "a:9876;b:9876", "ns", true, "trace", 2, true, "canal",
                500));
    }

    @Test
    void legacyKeysFillAbsentNewOnes() {
        RocketMqConfig config = RocketMqConfig.from(TestProperties.of("canal.mq.servers", "old:9876",
                "canal.mq.producerGroup", "oldGroup", "canal.mq.namespace", "oldNs", "rocketmq.namespace", "new"));

        assertThat(config.namesrvAddr()).isEqualTo("old:9876");
        assertThat(config.producerGroup()).isEqualTo("oldGroup");
        assertThat(config.namespace()).isEqualTo("new");
    }

    @Test
    void badValuesAreRefusedNamingTheKey() {
        assertThatThrownBy(() -> RocketMqConfig.from(TestProperties.of("rocketmq.retry.times.when.send.failed", "-1")))
                .hasMessageContaining("rocketmq.retry.times.when.send.failed");
        assertThatThrownBy(() -> RocketMqConfig.from(TestProperties.of("rocketmq.send.timeout", "0")))
                .hasMessageContaining("rocketmq.send.timeout");
        assertThatThrownBy(() -> RocketMqConfig.from(TestProperties.of("rocketmq.vip.channel.enabled", "yes")))
                .hasMessageContaining("rocketmq.vip.channel.enabled");
    }

    @Test
    void hashingOverTheTopicsLiveQueueCountIsRefusedNamingTheKeyAndItsDefaultAccepted() {
        assertThatThrownBy(() -> RocketMqConfig.from(TestProperties.of("canal.mq.enableDynamicQueuePartition", "true")))
                .hasMessageContaining("canal.mq.enableDynamicQueuePartition");
        assertThat(RocketMqConfig.from(TestProperties.of("canal.mq.enableDynamicQueuePartition", "false")).producerGroup())
                .isEqualTo("test");
    }
}
