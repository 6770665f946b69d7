package dev.canal.connector.kafka;

import dev.canal.connector.mq.BatchEncoder;
import dev.canal.connector.mq.MqConfig;
import dev.canal.connector.mq.MqDestinationWorker;
import dev.canal.connector.mq.MqProducer;
import dev.canal.server.CanalServer;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka MQ mode (Canal's CanalMQStarter with the kafka producer): one shared producer and
 * one worker thread per destination, each pulling batches through the embedded server and acking them only
 * after Kafka acknowledged all their records. The deployer starts the destinations' instances; a worker whose
 * destination is not started yet retries its subscription.
 */
public final class KafkaMqRunner implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KafkaMqRunner.class);
    private static final Duration STOP_WAIT = Duration.ofSeconds(30);

    private record Running(MqDestinationWorker worker, Thread thread) {
    }

    private final CanalServer server;
    private final MqProducer producer;
    private final Map<String, Running> workers = new HashMap<>(); // guarded by this

    /** Builds the Kafka producer from the {@code kafka.*} settings. */
    public KafkaMqRunner(CanalServer server, KafkaProducerConfig producerConfig) {
        this(server, new KafkaMqProducer(producerConfig));
    }

    public KafkaMqRunner(CanalServer server, MqProducer producer) {
        this.server = Objects.requireNonNull(server, "server");
        this.producer = Objects.requireNonNull(producer, "producer");
    }

    /** Starts the destination's worker; fails when it runs already. */
    public synchronized void start(String destination, MqConfig config) {
        if (workers.containsKey(destination)) {
            throw new IllegalStateException("the MQ worker of destination " + destination + " runs already");
        }
        MqDestinationWorker worker = new MqDestinationWorker(server, destination, config, new BatchEncoder(config),
                producer);
        Thread thread = new Thread(worker, "kafka-mq-" + destination);
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
