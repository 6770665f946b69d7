package dev.canal.connector.pulsar;

import dev.canal.connector.mq.MqMode;
import dev.canal.connector.mq.MqProducer;
import java.util.Properties;

/**
 * Pulsar mode ({@code canal.serverMode=pulsarMQ}): one Pulsar client under the shared per-destination workers.
 * Messages, topics and partitions follow the shared rules ({@code canal.mq.*}), as for Kafka; the partition travels
 * in the message's {@code partitionNum} property, as in Canal.
 */
public final class PulsarMode implements MqMode {

    @Override
    public String name() {
        return "pulsarMQ";
    }

    /** Its worker threads are {@code pulsar-mq-<destination>}. */
    @Override
    public String threadName() {
        return "pulsar";
    }

    @Override
    public MqProducer producer(Properties serverProperties) {
        return new PulsarProducer(PulsarConfig.from(serverProperties));
    }
}
