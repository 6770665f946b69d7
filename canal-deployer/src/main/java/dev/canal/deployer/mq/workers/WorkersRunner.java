package dev.canal.deployer.mq.workers;

import dev.canal.connector.mq.MqConfig;
import dev.canal.connector.mq.MqWorkers;
import dev.canal.deployer.mq.MqRunner;
import dev.canal.protocol.config.TypedProperties;
import java.util.Properties;

/** A broker's {@link MqWorkers} behind the deployer's {@link MqRunner}; reached only from an MQ mode's factory. */
public record WorkersRunner(MqWorkers workers) implements MqRunner {

    @Override
    public void validate(Properties destinationProperties) {
        MqConfig.from(destinationProperties);
    }

    @Override
    public void start(String destination, Properties destinationProperties) {
        workers.start(destination, MqConfig.from(destinationProperties));
    }

    @Override
    public void stop(String destination) {
        try {
            workers.stop(destination);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        try {
            workers.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@code canal.mq.flatMessage} of the server's settings. */
    public static boolean sendsFlatMessages(Properties serverProperties) {
        return new TypedProperties(serverProperties).bool(MqConfig.FLAT_MESSAGE);
    }
}
