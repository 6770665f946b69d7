package dev.canal.connector.kafka;

import dev.canal.connector.mq.MqProducer;
import dev.canal.connector.mq.MqWorkers;
import dev.canal.server.CanalServer;

/** Kafka MQ mode: the shared per-destination workers over one Kafka producer. */
public final class KafkaMqRunner extends MqWorkers {

    /** Builds the Kafka producer from the {@code kafka.*} settings. */
    public KafkaMqRunner(CanalServer server, KafkaProducerConfig producerConfig) {
        this(server, new KafkaMqProducer(producerConfig));
    }

    public KafkaMqRunner(CanalServer server, MqProducer producer) {
        super(server, producer, "kafka");
    }
}
