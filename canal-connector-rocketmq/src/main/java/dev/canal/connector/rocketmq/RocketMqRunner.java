package dev.canal.connector.rocketmq;

import dev.canal.connector.mq.MqProducer;
import dev.canal.connector.mq.MqWorkers;
import dev.canal.server.CanalServer;

/**
 * RocketMQ MQ mode: the shared per-destination workers over one RocketMQ producer. A record's partition is the
 * index of its message queue in the topic's queue list (modulo the queue count), as in Canal, so
 * {@code canal.mq.partitionHash} keeps each key on one queue.
 */
public final class RocketMqRunner extends MqWorkers {

    public RocketMqRunner(CanalServer server, RocketMqConfig config) {
        this(server, new RocketMqProducer(config));
    }

    public RocketMqRunner(CanalServer server, MqProducer producer) {
        super(server, producer, "rocketmq");
    }
}
