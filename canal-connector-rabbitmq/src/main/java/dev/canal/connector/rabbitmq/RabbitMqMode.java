package dev.canal.connector.rabbitmq;

import dev.canal.connector.mq.MqMode;
import dev.canal.connector.mq.MqConfig;
import dev.canal.connector.mq.MqProducer;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RabbitMQ mode ({@code canal.serverMode=rabbitMQ}): one RabbitMQ connection under the shared per-destination
 * workers. RabbitMQ has no partitions: as in Canal, a destination's messages all go to its topic's routing key in
 * batch order, one flat message per row entry, and {@code canal.mq.partitionHash} is ignored.
 */
public final class RabbitMqMode implements MqMode {

    private static final Logger log = LoggerFactory.getLogger(RabbitMqMode.class);

    @Override
    public String name() {
        return "rabbitMQ";
    }

    @Override
    public MqProducer producer(Properties serverProperties) {
        return new RabbitMqProducer(RabbitMqConfig.from(serverProperties));
    }

    @Override
    public MqConfig adapt(String destination, MqConfig config) {
        if (!config.partitionHash().isEmpty()) {
            log.warn("destination {}: {} ignored, as Canal does: RabbitMQ has no partitions, every message of the "
                    + "destination keeps its order on one routing key", destination, MqConfig.PARTITION_HASH.name());
        }
        return config.withoutPartitionHash();
    }
}
