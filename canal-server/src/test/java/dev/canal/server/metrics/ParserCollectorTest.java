package dev.canal.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.instance.DefaultCanalInstance;
import dev.canal.instance.GroupEventParser;
import dev.canal.instance.LogAlarmHandler;
import dev.canal.meta.MemoryMetaManager;
import dev.canal.parse.EventParser;
import dev.canal.parse.mysql.MysqlEventParser;
import dev.canal.parse.mysql.MysqlParserConfig;
import dev.canal.parse.position.MemoryLogPositionManager;
import dev.canal.sink.EntryEventSink;
import dev.canal.sink.filter.SinkFilterConfig;
import dev.canal.store.MemoryEventStore;
import dev.canal.store.StoreConfig;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ParserCollectorTest {

    private final MemoryEventStore store = new MemoryEventStore(StoreConfig.itemSize(16));
    private final EntryEventSink sink = new EntryEventSink(store, false);
    private final InstanceRegistry registry = new InstanceRegistry(SinkLocator.NONE, System::currentTimeMillis);

    private MysqlEventParser parser(String destination, boolean parallel) {
        Properties source = new Properties();
        source.setProperty(MysqlParserConfig.MASTER_ADDRESS.name(), "127.0.0.1:3306");
        source.setProperty(MysqlParserConfig.PARALLEL.name(), Boolean.toString(parallel));
        return new MysqlEventParser(destination, MysqlParserConfig.fromProperties(source), sink,
                new MemoryLogPositionManager(), SinkFilterConfig.defaults());
    }

    private void register(String destination, EventParser parser) {
        registry.starting(new DefaultCanalInstance(destination, new MemoryMetaManager(), new LogAlarmHandler(), store,
                sink, parser));
    }

    /** Each family's samples as "labels=value" lines, keyed by family name. */
    private Map<String, List<String>> scrape() {
        return new ParserCollector(registry).collect().stream().collect(Collectors.toMap(MetricFamily::name,
                family -> family.samples().stream().map(s -> s.labels().stream()
                        .map(l -> l.name() + "=" + l.value()).collect(Collectors.joining(",")) + " " + s.value())
                        .toList()));
    }

    @Test
    void groupMembersAreNumberedFromOneAndTheModeIsOneSeriesPerDestination() {
        register("group", new GroupEventParser(List.of(parser("group", true), parser("group", true))));
        register("single", parser("single", true));

        Map<String, List<String>> families = scrape();

        assertThat(families.get("canal_instance_received_binlog_bytes")).containsExactlyInAnyOrder(
                "destination=group,parser=1 0.0", "destination=group,parser=2 0.0",
                "destination=single,parser=0 0.0");
        assertThat(families.get("canal_instance_publish_blocking_time")).containsExactlyInAnyOrder(
                "destination=group,parser=1 0.0", "destination=group,parser=2 0.0",
                "destination=single,parser=0 0.0");
        assertThat(families.get("canal_instance_parser_mode")).containsExactlyInAnyOrder(
                "destination=group,parallel=true 1.0", "destination=single,parallel=true 1.0");
        assertThat(families.get("canal_instance_source_switches")).as("no switch to a standby yet")
                .containsExactlyInAnyOrder("destination=group,parser=1 0.0", "destination=group,parser=2 0.0",
                        "destination=single,parser=0 0.0");
    }

    @Test
    void withoutAParallelParserThePublishBlockingFamilyIsLeftOut() {
        register("serial", parser("serial", false));

        Map<String, List<String>> families = scrape();

        assertThat(families).doesNotContainKey("canal_instance_publish_blocking_time");
        assertThat(families.get("canal_instance_parser_mode")).containsExactly("destination=serial,parallel=false 1.0");
    }
}
