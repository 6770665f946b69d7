package dev.canal.connector.kafka;

import dev.canal.connector.mq.MqPipeline;
import dev.canal.connector.mq.MqProducer;
import dev.canal.connector.mq.MqTransactionalProducer;
import dev.canal.store.StoreConfig;
import dev.canal.testsupport.KafkaBroker;
import dev.canal.testsupport.TestProperties;
import java.util.Properties;

/** One destination end to end into Kafka. */
final class Pipeline extends MqPipeline {

    Pipeline(String destination, StoreConfig store, MqProducer producer) {
        super(destination, store, new KafkaMode(), producer);
    }

    /** Exactly once: the destination's transactional producer claims its cursor before its instance starts. */
    Pipeline(String destination, StoreConfig store, MqTransactionalProducer producer) {
        super(destination, store, new KafkaMode(), producer);
    }

    static Properties producerProperties(KafkaBroker broker, String... extraKeyValues) {
        Properties p = TestProperties.of(extraKeyValues);
        p.putIfAbsent("kafka.bootstrap.servers", broker.bootstrapServers());
        return p;
    }
}
