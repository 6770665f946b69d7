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
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * The server side of stage 4, run in its own JVM so that its CPU and memory are its own: our TCP server and
 * embedded server over one destination (parser, sink, store with Canal's defaults, memory meta). The destination
 * is started, as the deployer does at boot, just before {@value #READY}PORT is printed: the driver's clock starts
 * when it reads that line, so it covers the whole catch-up. Answers each {@value ServerStats#REQUEST} line on its
 * standard input with its {@link ServerStats}; stops when its standard input closes.
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
        BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = input.readLine(); line != null; line = input.readLine()) {
            if (line.equals(ServerStats.REQUEST)) {
                System.out.println(ServerStats.capture().toLine());
                System.out.flush();
            }
        } // the driver closes our input when it is done with us
        tcp.stop();
        embedded.stop();
    }
}
