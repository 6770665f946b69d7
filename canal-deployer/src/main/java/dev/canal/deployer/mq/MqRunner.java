package dev.canal.deployer.mq;

import java.util.Properties;

/**
 * What MQ mode runs beside each destination active on this server: a worker that takes its
 * batches through the embedded server and pushes them to the broker, acking each once the broker has it.
 */
public interface MqRunner {

    /** @throws IllegalArgumentException naming the key when the destination's MQ settings are invalid */
    void validate(Properties destinationProperties);

    /** Starts the destination's worker; its instance is started by the caller. */
    void start(String destination, Properties destinationProperties);

    /** Stops the destination's worker and waits for it (its batch in hand is rolled back); no-op if none runs. */
    void stop(String destination);

    /** Stops every worker and releases the broker client. */
    void close();
}
