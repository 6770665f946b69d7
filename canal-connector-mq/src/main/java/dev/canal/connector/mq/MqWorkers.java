package dev.canal.connector.mq;

import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.config.ConfigValueException;
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
 * An MQ mode at run time (Canal's CanalMQStarter), whatever the broker: one worker thread per destination, each
 * pulling batches through the embedded server and acking them only once the broker has them. The deployer starts
 * the destinations' instances; a worker whose destination is not started yet retries its subscription.
 *
 * <p>Destinations deliver either through one shared producer, acking each batch once the broker acknowledged its
 * records (at least once, Canal's way), or with {@code canal.mq.transaction} each through a transactional session of
 * its own that commits its batches with its cursor (exactly once, docs/mq.md). A transactional destination is
 * {@linkplain #prepare prepared} before its instance starts: its session fences every earlier producer of it and
 * the cursor committed last becomes the cursor its parser starts from.
 */
public final class MqWorkers implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MqWorkers.class);
    private static final Duration STOP_WAIT = Duration.ofSeconds(30);

    private record Running(MqDestinationWorker worker, Thread thread) {
    }

    /** A transactional destination's session, opened and claimed before its instance started. */
    private record Prepared(MqTransactionalSession session, MqCursor claimed) {
    }

    private final CanalServer server;
    private final MqMode mode;
    private final MqProducer producer; // null with transactions
    private final MqTransactionalProducer transactional; // null without
    private final String threadPrefix;
    private final Map<String, Running> workers = new HashMap<>(); // guarded by this
    private final Map<String, Prepared> prepared = new HashMap<>(); // guarded by this

    /**
     * Workers over the broker's producer, or its transactional producer with {@code canal.mq.transaction}, built
     * from the server's settings.
     *
     * @throws ConfigValueException naming the key when a setting is invalid, or transactions are asked of a broker
     *     without them
     */
    public static MqWorkers create(CanalServer server, MqMode mode, Properties serverProperties) {
        MqTransactionConfig transactions = MqTransactionConfig.from(serverProperties);
        if (!transactions.enabled()) {
            return new MqWorkers(server, mode, mode.producer(serverProperties), null);
        }
        MqTransactionalProducer producer = mode.transactionalProducer(serverProperties, transactions)
                .orElseThrow(() -> ConfigValueException.invalid(MqTransactionConfig.TRANSACTION.name(), "true",
                        "the " + mode.name() + " mode has no transactions; exactly-once delivery needs one that has"
                                + " (kafka)"));
        return new MqWorkers(server, mode, null, producer);
    }

    /**
     * @param mode     adapts each destination's settings and names the worker threads
     *                 ({@code <name>-mq-<destination>})
     * @param producer the broker's producer (a test's, with short timeouts)
     */
    public MqWorkers(CanalServer server, MqMode mode, MqProducer producer) {
        this(server, mode, Objects.requireNonNull(producer, "producer"), null);
    }

    /** Workers that deliver exactly once through the broker's transactional producer (a test's). */
    public MqWorkers(CanalServer server, MqMode mode, MqTransactionalProducer transactional) {
        this(server, mode, null, Objects.requireNonNull(transactional, "transactional"));
    }

    private MqWorkers(CanalServer server, MqMode mode, MqProducer producer, MqTransactionalProducer transactional) {
        this.server = Objects.requireNonNull(server, "server");
        this.mode = Objects.requireNonNull(mode, "mode");
        this.producer = producer;
        this.transactional = transactional;
        this.threadPrefix = mode.threadName() + "-mq-";
    }

    /** Whether destinations deliver exactly once, through broker transactions. */
    public boolean transactional() {
        return transactional != null;
    }

    /**
     * Before the destination's instance starts, with transactions: opens its session, which fences every earlier
     * producer of the destination (here or on another server) and aborts what it left in flight, claims the cursor
     * committed last with a commit of its own, and hands that cursor to the server as the one the parser starts
     * from (docs/mq.md, "Which cursor wins"). Nothing to do without transactions.
     *
     * @throws IllegalStateException when the broker cannot be reached or refuses; nothing is left open then
     */
    public void prepare(String destination) throws InterruptedException {
        if (transactional == null) {
            return;
        }
        discardPrepared(destination);
        MqTransactionalSession session;
        try {
            session = transactional.open(destination);
        } catch (MqSendException e) {
            throw new IllegalStateException("destination " + destination + ": cannot open its transactional "
                    + "producer: " + e.getMessage(), e);
        }
        try {
            MqCursor found = session.committed().orElse(null);
            MqCursor claimed = found != null ? found.renewed() : MqCursor.at(null, 0);
            session.commit("destination " + destination + " claim", claimed);
            if (claimed.position() != null) {
                server.seedCursor(new ClientIdentity(destination, MqDestinationWorker.CLIENT_ID, ""),
                        claimed.position());
            } else if (claimed.skip() > 0) {
                log.warn("destination {}: the committed cursor names no position, only {} entries delivered from "
                        + "where parsing first began; they are skipped from the meta manager's cursor or the "
                        + "configured start (docs/mq.md, limits)", destination, claimed.skip());
            }
            log.info("destination {}: resumes from the cursor committed with its messages: {}", destination,
                    found == null ? "none yet, so from the meta manager's cursor or the configured start" : found);
            synchronized (this) {
                prepared.put(destination, new Prepared(session, claimed));
            }
        } catch (MqSendException | RuntimeException e) {
            session.close();
            throw new IllegalStateException("destination " + destination + ": cannot claim its cursor: "
                    + e.getMessage(), e);
        }
    }

    /** Starts the destination's worker with its settings as the broker takes them; fails when it runs already. */
    public synchronized void start(String destination, MqConfig settings) {
        MqConfig config = mode.adapt(destination, settings);
        if (workers.containsKey(destination)) {
            throw new IllegalStateException("the MQ worker of destination " + destination + " runs already");
        }
        MqDestinationWorker worker = worker(destination, config);
        Thread thread = new Thread(worker, threadPrefix + destination);
        workers.put(destination, new Running(worker, thread));
        thread.start();
        log.info("MQ worker of destination {} started: topic {}, flat {}{}", destination, config.topic(),
                config.flatMessage(), transactional != null ? ", exactly once through transactions" : "");
    }

    private MqDestinationWorker worker(String destination, MqConfig config) {
        BatchEncoder encoder = new BatchEncoder(config);
        if (transactional == null) {
            return new AckingDestinationWorker(server, destination, config, encoder, producer);
        }
        Prepared ready = prepared.remove(destination);
        if (ready == null) {
            throw new IllegalStateException("destination " + destination + " was not prepared: its transactional "
                    + "producer must claim the cursor before its instance starts");
        }
        return new TransactionalDestinationWorker(server, destination, config, encoder, transactional,
                ready.session(), ready.claimed());
    }

    /** Stops the destination's worker and waits for it; its batch in hand, if any, is rolled back. */
    public void stop(String destination) throws InterruptedException {
        Running running;
        synchronized (this) {
            running = workers.remove(destination);
        }
        discardPrepared(destination);
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

    private void discardPrepared(String destination) {
        Prepared unused;
        synchronized (this) {
            unused = prepared.remove(destination);
        }
        if (unused != null) {
            unused.session().close();
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
        List<String> unstarted;
        synchronized (this) {
            unstarted = List.copyOf(prepared.keySet());
        }
        for (String destination : unstarted) {
            discardPrepared(destination);
        }
        if (producer != null) {
            producer.close();
        } else {
            transactional.close();
        }
    }
}
