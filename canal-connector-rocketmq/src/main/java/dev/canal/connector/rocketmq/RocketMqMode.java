package dev.canal.connector.rocketmq;

import dev.canal.connector.mq.MqMode;
import dev.canal.connector.mq.MqProducer;
import java.util.Properties;

/**
 * RocketMQ mode ({@code canal.serverMode=rocketMQ}): one RocketMQ producer under the shared per-destination workers.
 * A record's partition is the index of its message queue in the topic's queue list (modulo the queue count), as in
 * Canal, so {@code canal.mq.partitionHash} keeps each key on one queue.
 */
public final class RocketMqMode implements MqMode {

    @Override
    public String name() {
        return "rocketMQ";
    }

    @Override
    public MqProducer producer(Properties serverProperties) {
        return new RocketMqProducer(RocketMqConfig.from(serverProperties));
    }
}
