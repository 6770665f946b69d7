package dev.canal.connector.pulsar;

import dev.canal.connector.mq.MqProducer;
import dev.canal.connector.mq.MqWorkers;
import dev.canal.server.CanalServer;

/**
 * Pulsar MQ mode: the shared per-destination workers over one Pulsar client. Messages, topics and partitions follow
 * the shared rules ({@code canal.mq.*}), as for Kafka; the partition travels in the message's {@code partitionNum}
 * property, as in Canal.
 */
public final class PulsarRunner extends MqWorkers {

    public PulsarRunner(CanalServer server, PulsarConfig config) {
        this(server, new PulsarProducer(config));
    }

    public PulsarRunner(CanalServer server, MqProducer producer) {
        super(server, producer, "pulsar");
    }
}
