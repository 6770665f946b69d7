package dev.canal.deployer.mq;

import dev.canal.connector.mq.MqConfig;
import dev.canal.connector.mq.MqMode;
import dev.canal.connector.mq.MqWorkers;
import dev.canal.protocol.config.TypedProperties;
import dev.canal.server.CanalServer;
import java.util.Properties;

/**
 * MQ mode beside the destinations active on this server, whatever the broker: the broker's producer under one worker
 * per destination, which takes its batches through the embedded server and pushes them to the broker, acking each
 * once the broker has it. The broker is the {@link MqMode} that {@code canal.serverMode} names; its client's classes
 * load here, and only in its mode.
 */
public final class MqRunner {

    private final MqWorkers workers;

    private MqRunner(MqWorkers workers) {
        this.workers = workers;
    }

    /**
     * The broker's producer, from the server's settings, under no worker yet.
     *
     * @throws dev.canal.protocol.config.ConfigValueException carrying the key when a producer setting is invalid
     */
    public static MqRunner create(MqMode mode, CanalServer server, Properties serverProperties) {
        return new MqRunner(MqWorkers.create(server, mode, serverProperties));
    }

    /**
     * {@code canal.mq.flatMessage} of the server's settings: flat messages are built from parsed entries, so the
     * store must not keep them serialized.
     */
    public static boolean sendsFlatMessages(Properties serverProperties) {
        return new TypedProperties(serverProperties).bool(MqConfig.FLAT_MESSAGE);
    }

    /**
     * Before the destination's instance starts: with exactly-once delivery, fences every earlier producer of the
     * destination and sets the cursor committed with the broker as the one its parser starts from; nothing otherwise.
     *
     * @throws IllegalStateException when the broker cannot be reached; the destination does not start then
     */
    public void prepare(String destination) {
        try {
            workers.prepare(destination);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while preparing destination " + destination, e);
        }
    }

    /** Starts the destination's worker; its instance is started by the caller, after {@link #prepare}. */
    public void start(String destination, MqConfig settings) {
        workers.start(destination, settings);
    }

    /** Stops the destination's worker and waits for it (its batch in hand is rolled back); no-op if none runs. */
    public void stop(String destination) {
        try {
            workers.stop(destination);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops every worker and releases the broker client. */
    public void close() {
        try {
            workers.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
