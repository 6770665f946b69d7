package dev.canal.instance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.meta.MemoryMetaManager;
import dev.canal.meta.MetaManager;
import dev.canal.parse.EventParser;
import dev.canal.parse.mysql.MysqlEventParser;
import dev.canal.parse.mysql.MysqlParserConfig;
import dev.canal.parse.position.MemoryLogPositionManager;
import dev.canal.protocol.ClientIdentity;
import dev.canal.sink.filter.SinkFilterConfig;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Properties;
import dev.canal.sink.EntryEventSink;
import dev.canal.sink.EventSink;
import dev.canal.store.EventStore;
import dev.canal.store.MemoryEventStore;
import dev.canal.store.StoreConfig;
import org.junit.jupiter.api.Test;

class DefaultCanalInstanceTest {

    private final MetaManager meta = new MemoryMetaManager();
    private final EventStore store = new MemoryEventStore(StoreConfig.itemSize(16));

    private final EventSink sink = new EntryEventSink(store, false);

    private DefaultCanalInstance instance(String destination, EventStore eventStore, EventParser parser) {
        return new DefaultCanalInstance(destination, meta, new LogAlarmHandler(), eventStore, sink, parser);
    }

    @Test
    void parserStartsAfterMetaStoreAndSinkAndStopsBeforeThem() {
        ProbeEventParser parser = new ProbeEventParser(meta, store, sink, "p", false);
        DefaultCanalInstance instance = instance("example", store, parser);

        instance.start();
        assertThat(instance.isStart()).isTrue();
        assertThat(parser.isStart()).isTrue();
        instance.stop();

        assertThat(parser.observations()).containsExactly("start: meta true, store true, sink true",
                "stop: meta true, store true, sink true");
        assertThat(instance.isStart()).isFalse();
        assertThat(meta.isStart()).isFalse();
        assertThat(store.isStarted()).isFalse();
        assertThat(sink.isStarted()).isFalse();
    }

    @Test
    void failedParserStartStopsWhatStartedAndNamesDestinationAndComponent() {
        ProbeEventParser parser = new ProbeEventParser(meta, store, sink, "p", true);
        DefaultCanalInstance instance = instance("orders", store, parser);

        assertThatThrownBy(instance::start)
                .isInstanceOf(InstanceStartException.class)
                .hasMessageContaining("destination orders")
                .hasMessageContaining("event parser")
                .hasMessageContaining("cannot reach the source database");

        assertThat(instance.isStart()).isFalse();
        assertThat(meta.isStart()).isFalse();
        assertThat(store.isStarted()).isFalse();
        assertThat(sink.isStarted()).isFalse();
    }

    @Test
    void failedStoreStartNeverStartsTheParser() {
        ProbeEventParser parser = new ProbeEventParser(meta, store, sink, "p", false);
        DefaultCanalInstance instance = instance("orders", failingToStart(store), parser);

        assertThatThrownBy(instance::start)
                .isInstanceOf(InstanceStartException.class)
                .hasMessageContaining("event store");
        assertThat(parser.observations()).isEmpty();
        assertThat(meta.isStart()).isFalse();
    }

    @Test
    void metaManagerAlreadyStartedBySubscribeIsKeptAndStoppedWithTheInstance() {
        meta.start();
        ProbeEventParser parser = new ProbeEventParser(meta, store, sink, "p", false);
        DefaultCanalInstance instance = instance("example", store, parser);

        instance.start();
        instance.stop();

        assertThat(meta.isStart()).isFalse();
    }

    @Test
    void nonEmptyClientFilterReplacesTheParsersWhiteFilter() {
        ProbeEventParser parser = new ProbeEventParser(meta, store, sink, "p", false);
        DefaultCanalInstance instance = instance("example", store, parser);

        assertThat(instance.subscribeChange(new ClientIdentity("example", (short) 1001, "shop\\..*"))).isTrue();
        assertThat(instance.subscribeChange(new ClientIdentity("example", (short) 1002, ""))).isFalse();
        assertThat(instance.subscribeChange(new ClientIdentity("example", (short) 1003, "  "))).isFalse();

        assertThat(parser.whiteFilters()).containsExactly("shop\\..*");
    }

    @Test
    void subscribedClientFiltersReachTheParserBeforeItStarts() {
        meta.start();
        meta.subscribe(new ClientIdentity("example", (short) 1001, "shop\\..*"));
        meta.subscribe(new ClientIdentity("example", (short) 1002, ""));
        ProbeEventParser parser = new ProbeEventParser(meta, store, sink, "p", false);

        instance("example", store, parser).start();

        assertThat(parser.filterArrivals()).containsExactly("shop\\..* before start");
        assertThat(parser.isStart()).isTrue();
    }

    @Test
    void mysqlParserTakesTheClientFilter() {
        Properties source = new Properties();
        source.setProperty(MysqlParserConfig.MASTER_ADDRESS.name(), "127.0.0.1:3306");
        MysqlEventParser parser = new MysqlEventParser("example", MysqlParserConfig.fromProperties(source), sink,
                new MemoryLogPositionManager(), SinkFilterConfig.defaults());

        assertThat(instance("example", store, parser).subscribeChange(
                new ClientIdentity("example", (short) 1001, "shop\\..*"))).isTrue();
    }

    @Test
    void parserWithoutFilterSupportKeepsItsFilter() {
        DefaultCanalInstance instance = instance("example", store, new IdleEventParser());

        assertThat(instance.subscribeChange(new ClientIdentity("example", (short) 1001, "shop\\..*"))).isFalse();
    }

    /** The store, but its start fails, as one with an impossible configuration would. */
    private static EventStore failingToStart(EventStore store) {
        return (EventStore) Proxy.newProxyInstance(EventStore.class.getClassLoader(), new Class<?>[] {EventStore.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("start")) {
                        throw new IllegalStateException("no memory for the ring");
                    }
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
