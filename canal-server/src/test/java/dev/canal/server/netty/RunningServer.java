package dev.canal.server.netty;

import dev.canal.instance.TestInstance;
import dev.canal.meta.MemoryMetaManager;
import dev.canal.meta.MetaManager;
import dev.canal.server.EmbeddedCanalServer;
import dev.canal.server.ServerConfig;
import dev.canal.store.StoreConfig;
import dev.canal.server.metrics.ClientMetrics;
import java.util.function.Supplier;

/** One destination behind a real embedded server and TCP server on a free loopback port. */
final class RunningServer implements AutoCloseable {

    static final String DESTINATION = "example";

    final TestInstance instance;
    final EmbeddedCanalServer embedded;
    final CanalNettyServer tcp;
    final ClientMetrics metrics = new ClientMetrics();

    private RunningServer(ServerConfig config, StoreConfig storeConfig, Supplier<MetaManager> meta,
            boolean preferEpoll) {
        instance = new TestInstance(DESTINATION, storeConfig, meta.get());
        embedded = new EmbeddedCanalServer(destination -> {
            if (!destination.equals(DESTINATION)) {
                throw new IllegalArgumentException("unknown destination " + destination);
            }
            return instance;
        });
        embedded.start();
        embedded.start(DESTINATION);
        tcp = new CanalNettyServer(config, embedded, embedded::start, DESTINATION::equals, metrics, preferEpoll);
        tcp.start();
    }

    static RunningServer open() {
        return new RunningServer(ServerConfig.open(0), StoreConfig.itemSize(1024), MemoryMetaManager::new, true);
    }

    static RunningServer with(ServerConfig config) {
        return new RunningServer(config, StoreConfig.itemSize(1024), MemoryMetaManager::new, true);
    }

    static RunningServer with(ServerConfig config, StoreConfig storeConfig, Supplier<MetaManager> meta,
            boolean preferEpoll) {
        return new RunningServer(config, storeConfig, meta, preferEpoll);
    }

    int port() {
        return tcp.port();
    }

    @Override
    public void close() {
        tcp.stop();
        embedded.stop();
    }
}
