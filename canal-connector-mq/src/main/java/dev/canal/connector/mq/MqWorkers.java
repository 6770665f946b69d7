package dev.canal.connector.mq;

import dev.canal.server.CanalServer;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An MQ mode at run time (Canal's CanalMQStarter), whatever the broker: one shared producer and one worker thread
 * per destination, each pulling batches through the embedded server and acking them only after the broker
 * acknowledged all their records. The deployer starts the destinations' instances; a worker whose destination is
 * not started yet retries its subscription.
 */
public final class MqWorkers implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MqWorkers.class);
    private static final Duration STOP_WAIT = Duration.ofSeconds(30);

    private record Running(MqDestinationWorker worker, Thread thread) {
    }

    private final CanalServer server;
    private final MqMode mode;
    private final MqProducer producer;
    private final String threadPrefix;
    private final Map<String, Running> workers = new HashMap<>(); // guarded by this

    /** Workers over the broker's producer, built from the server's settings. */
    public MqWorkers(CanalServer server, MqMode mode, Properties serverProperties) {
        this(server, mode, mode.producer(serverProperties));
    }

    /**
     * @param mode     adapts each destination's settings and names the worker threads
     *                 ({@code <name>-mq-<destination>})
     * @param producer the broker's producer (a test's, with short timeouts)
     */
    public MqWorkers(CanalServer server, MqMode mode, MqProducer producer) {
        this.server = Objects.requireNonNull(server, "server");
        this.mode = Objects.requireNonNull(mode, "mode");
        this.producer = Objects.requireNonNull(producer, "producer");
        this.threadPrefix = mode.threadName() + "-mq-";
    }

    /** Starts the destination's worker with its settings as the broker takes them; fails when it runs already. */
    public synchronized void start(String destination, MqConfig settings) {
        MqConfig config = mode.adapt(destination, settings);
        if (workers.containsKey(destination)) {
            throw new IllegalStateException("the MQ worker of destination " + destination + " runs already");
        }
        MqDestinationWorker worker = new MqDestinationWorker(server, destination, config, new BatchEncoder(config),
                producer);
        Thread thread = new Thread(worker, threadPrefix + destination);
        workers.put(destination, new Running(worker, thread));
        thread.start();
        log.info("MQ worker of destination {} started: topic {}, flat {}", destination, config.topic(),
                config.flatMessage());
    }

    /** Stops the destination's worker and waits for it; its batch in hand, if any, is rolled back. */
    public void stop(String destination) throws InterruptedException {
        Running running;
        synchronized (this) {
            running = workers.remove(destination);
        }
        if (running != null) {
            running.worker().stop();
            running.thread().join(STOP_WAIT.toMillis());
            if (running.thread().isAlive()) {
                log.warn("MQ worker of destination {} still busy after {}; interrupting it", destination, STOP_WAIT);
                running.thread().interrupt();
                running.thread().join();
            }
        }
    }

    public synchronized List<String> destinations() {
        return List.copyOf(workers.keySet());
    }

    /** Stops every worker, then closes the producer. */
    @Override
    public void close() throws InterruptedException {
        for (String destination : destinations()) {
            stop(destination);
        }
        producer.close();
    }
}
