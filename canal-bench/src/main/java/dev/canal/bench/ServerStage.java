package dev.canal.bench;

import dev.canal.instance.DefaultCanalInstance;
import dev.canal.instance.LogAlarmHandler;
import dev.canal.instance.MetaLogPositionManager;
import dev.canal.meta.MemoryMetaManager;
import dev.canal.parse.mysql.MysqlEventParser;
import dev.canal.parse.mysql.MysqlParserConfig;
import dev.canal.server.EmbeddedCanalServer;
import dev.canal.server.metrics.ClientMetrics;
import dev.canal.server.netty.CanalNettyServer;
import dev.canal.server.ServerConfig;
import dev.canal.sink.EntryEventSink;
import dev.canal.sink.filter.SinkFilterConfig;
import dev.canal.store.MemoryEventStore;
import dev.canal.store.StoreConfig;
import java.io.IOException;
import java.util.Properties;

/**
 * The server side of stage 4, run in its own JVM so that its CPU and memory are its own: our TCP server and
 * embedded server over one destination (parser, sink, store with Canal's defaults, memory meta). The destination
 * is started, as the deployer does at boot, just before {@value #READY}PORT is printed: the driver's clock starts
 * when it reads that line, so it covers the whole catch-up. Stops when its standard input closes.
 */
final class ServerStage {

    static final String DESTINATION = "bench";
    static final String READY = "READY ";

    private ServerStage() {
    }

    static void run(Target target, boolean parallel) throws IOException {
        Properties p = target.parserProperties(parallel);
        MemoryMetaManager meta = new MemoryMetaManager();
        MemoryEventStore store = new MemoryEventStore(StoreConfig.defaults());
        EntryEventSink sink = new EntryEventSink(store, false);
        MysqlEventParser parser = new MysqlEventParser(DESTINATION, MysqlParserConfig.fromProperties(p), sink,
                new MetaLogPositionManager(meta), SinkFilterConfig.fromProperties(p));
        DefaultCanalInstance instance = new DefaultCanalInstance(DESTINATION, meta, new LogAlarmHandler(), store,
                sink, parser);
        EmbeddedCanalServer embedded = new EmbeddedCanalServer(destination -> {
            if (!destination.equals(DESTINATION)) {
                throw new IllegalArgumentException("the bench server has only destination " + DESTINATION
                        + ", not " + destination);
            }
            return instance;
        });
        embedded.start();
        CanalNettyServer tcp = new CanalNettyServer(ServerConfig.open(0), embedded, new ClientMetrics());
        tcp.start();
        embedded.start(DESTINATION);
        System.out.println(READY + tcp.port());
        System.out.flush();
        while (System.in.read() >= 0) {
            // the driver closes our input when it is done with us
        }
        tcp.stop();
        embedded.stop();
    }
}
