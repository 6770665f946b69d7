package dev.canal.connector.rabbitmq;

import dev.canal.connector.mq.MqConfig;
import dev.canal.connector.mq.MqProducer;
import dev.canal.connector.mq.MqWorkers;
import dev.canal.server.CanalServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RabbitMQ MQ mode: the shared per-destination workers over one RabbitMQ connection. RabbitMQ has no partitions:
 * as in Canal, a destination's messages all go to its topic's routing key in batch order, one flat message per
 * row entry, and {@code canal.mq.partitionHash} is ignored.
 */
public final class RabbitMqRunner extends MqWorkers {

    private static final Logger log = LoggerFactory.getLogger(RabbitMqRunner.class);

    public RabbitMqRunner(CanalServer server, RabbitMqConfig config) {
        this(server, new RabbitMqProducer(config));
    }

    public RabbitMqRunner(CanalServer server, MqProducer producer) {
        super(server, producer, "rabbitmq");
    }

    @Override
    public synchronized void start(String destination, MqConfig config) {
        if (!config.partitionHash().isEmpty()) {
            log.warn("destination {}: {} ignored, as Canal does: RabbitMQ has no partitions, every message of the "
                    + "destination keeps its order on one routing key", destination, MqConfig.PARTITION_HASH.name());
        }
        super.start(destination, config.withoutPartitionHash());
    }
}
