package dev.canal.connector.kafka;

import dev.canal.connector.mq.MqMode;
import dev.canal.connector.mq.MqProducer;
import java.util.Properties;

/** Kafka mode ({@code canal.serverMode=kafka}): one Kafka producer under the shared per-destination workers. */
public final class KafkaMode implements MqMode {

    @Override
    public String name() {
        return "kafka";
    }

    /** The Kafka producer from the {@code kafka.*} settings. */
    @Override
    public MqProducer producer(Properties serverProperties) {
        return new KafkaMqProducer(KafkaProducerConfig.from(serverProperties));
    }
}
