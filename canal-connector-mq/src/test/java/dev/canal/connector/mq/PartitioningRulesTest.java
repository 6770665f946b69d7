package dev.canal.connector.mq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.protocol.config.ConfigValueException;
import dev.canal.connector.mq.PartitionHashRules.ByColumns;
import dev.canal.connector.mq.PartitionHashRules.ByPrimaryKey;
import dev.canal.connector.mq.PartitionHashRules.ByTable;
import java.util.List;
import org.junit.jupiter.api.Test;

class PartitioningRulesTest {

    @Test
    void dynamicTopicFollowsTheDocumentedExample() {
        DynamicTopicRules rules = DynamicTopicRules.parse("canal.mq.dynamicTopic", "mytest1.user,topic2:mytest2\\..*,.*\\..*");

        assertThat(rules.topicFor("mytest1", "user", "default")).isEqualTo("mytest1_user");
        assertThat(rules.topicFor("MyTest1", "USER", "default")).isEqualTo("mytest1_user");
        assertThat(rules.topicFor("mytest2", "orders", "default")).isEqualTo("topic2");
        assertThat(rules.topicFor("shop", "items", "default")).isEqualTo("shop_items");
    }

    @Test
    void dynamicTopicTriesSchemaNamesInASecondPass() {
        DynamicTopicRules rules = DynamicTopicRules.parse("k", "shop;audit:log.*");

        assertThat(rules.topicFor("shop", "items", "default")).isEqualTo("shop");
        assertThat(rules.topicFor("logs", "x", "default")).isEqualTo("audit");
        assertThat(rules.topicFor("other", "x", "default")).isEqualTo("default");
        assertThat(rules.topicFor("shop", "", "default")).as("no table: default topic").isEqualTo("default");
    }

    @Test
    void partitionHashTakesTheFirstMatchingItem() {
        PartitionHashRules rules = PartitionHashRules.parse("canal.mq.partitionHash",
                "test.user:$pk$;test.orders:customer^region,test\\.log.*,.*\\..*:id");

        assertThat(rules.modeFor("TEST", "User")).contains(new ByPrimaryKey());
        assertThat(rules.modeFor("test", "orders")).contains(new ByColumns(List.of("customer", "region")));
        assertThat(rules.modeFor("test", "log_2024")).contains(new ByTable());
        assertThat(rules.modeFor("shop", "items")).contains(new ByColumns(List.of("id")));
        assertThat(PartitionHashRules.parse("k", "test.user").modeFor("shop", "items")).isEmpty();
    }

    @Test
    void malformedItemsNameTheirKey() {
        assertThatThrownBy(() -> PartitionHashRules.parse("canal.mq.partitionHash", "test.user:"))
                .isInstanceOf(ConfigValueException.class).hasMessageContaining("canal.mq.partitionHash");
        assertThatThrownBy(() -> DynamicTopicRules.parse("canal.mq.dynamicTopic", "t:test\\.(.*"))
                .isInstanceOf(ConfigValueException.class).hasMessageContaining("canal.mq.dynamicTopic");
        assertThatThrownBy(() -> TopicPartitionCounts.parse("canal.mq.dynamicTopicPartitionNum", "t:zero"))
                .isInstanceOf(ConfigValueException.class).hasMessageContaining("canal.mq.dynamicTopicPartitionNum");
    }

    @Test
    void topicPartitionCountsOverrideTheDefault() {
        java.util.Properties p = new java.util.Properties();
        p.setProperty("canal.mq.topic", "example");
        p.setProperty("canal.mq.partitionsNum", "3");
        p.setProperty("canal.mq.dynamicTopicPartitionNum", "big:8,logs_.*:2");
        MqConfig config = MqConfig.from(p);

        assertThat(config.partitionsFor("big")).isEqualTo(8);
        assertThat(config.partitionsFor("logs_a")).isEqualTo(2);
        assertThat(config.partitionsFor("example")).isEqualTo(3);
    }

    @Test
    void partitionIsTheAbsoluteOfTheAbsoluteRemainder() {
        assertThat(RowHash.partition(Integer.MIN_VALUE, 3)).isEqualTo(Math.abs(Integer.MIN_VALUE % 3));
        assertThat(RowHash.partition(-7, 3)).isEqualTo(1);
        assertThat(RowHash.tablePartition("user", 4)).isEqualTo(Math.abs("user".hashCode()) % 4);
    }
}
