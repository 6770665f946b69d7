package dev.canal.connector.mq;

import dev.canal.instance.TestInstance;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.position.LogPosition;
import dev.canal.server.EmbeddedCanalServer;
import dev.canal.store.StoreConfig;
import dev.canal.testsupport.TestProperties;
import java.util.List;
import java.util.function.Function;

/** One destination end to end, for any broker: a store-backed instance, the embedded server and the MQ workers. */
public class MqPipeline implements AutoCloseable {

    public final String destination;
    public final TestInstance instance;
    public final EmbeddedCanalServer server;
    public final MqWorkers runner;

    /** @param producer the broker's producer, a test's with short timeouts */
    public MqPipeline(String destination, StoreConfig store, MqMode mode, MqProducer producer) {
        this(destination, store, server -> new MqWorkers(server, mode, producer));
    }

    /**
     * With exactly-once delivery: the destination is prepared (its producer fences the earlier ones and its cursor
     * is claimed) before its instance starts, as the deployer does.
     */
    public MqPipeline(String destination, StoreConfig store, MqMode mode, MqTransactionalProducer producer) {
        this(destination, store, server -> new MqWorkers(server, mode, producer));
    }

    private MqPipeline(String destination, StoreConfig store, Function<EmbeddedCanalServer, MqWorkers> workers) {
        this.destination = destination;
        this.instance = new TestInstance(destination, store);
        this.server = new EmbeddedCanalServer(d -> {
            if (!d.equals(destination)) {
                throw new IllegalArgumentException("no destination " + d);
            }
            return instance;
        });
        server.start();
        this.runner = workers.apply(server);
        try {
            runner.prepare(destination);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while preparing " + destination, e);
        }
        server.start(destination);
    }

    public static MqConfig mqConfig(String... keyValues) {
        return MqConfig.from(TestProperties.of(keyValues));
    }

    public void put(List<CanalEntry.Entry> entries) {
        instance.put(entries);
    }

    public void start(MqConfig config) {
        runner.start(destination, config);
    }

    /** The MQ client's acked cursor; null before its first ack of a batch with a transaction boundary. */
    public LogPosition cursor() {
        return instance.getMetaManager().getCursor(new ClientIdentity(destination, MqDestinationWorker.CLIENT_ID));
    }

    /** Whether the MQ worker has subscribed. */
    public boolean subscribed() {
        return instance.getMetaManager().hasSubscribe(new ClientIdentity(destination, MqDestinationWorker.CLIENT_ID));
    }

    @Override
    public void close() throws InterruptedException {
        runner.close();
        server.stop();
    }
}
