package dev.canal.server.metrics;

import static dev.canal.server.metrics.MetricType.COUNTER;
import static dev.canal.server.metrics.MetricType.GAUGE;

import dev.canal.instance.CanalInstance;
import dev.canal.instance.GroupEventParser;
import dev.canal.parse.EventParser;
import dev.canal.parse.mysql.MysqlEventParser;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The parser series of the running instances, with Canal's names and labels (docs/compatibility.md, metrics):
 * <ul>
 * <li>{@code canal_instance_received_binlog_bytes{destination, parser}}: binlog bytes read from the source;</li>
 * <li>{@code canal_instance_parser_mode{destination, parallel}}: 1, labelled with whether rows are decoded in
 * parallel;</li>
 * <li>{@code canal_instance_publish_blocking_time{destination, parser}}: ms the binlog reader waited for room in
 * the decoding ring; parallel parsers only, and the family is left out when no parser is parallel.</li>
 * <li>{@code canal_instance_source_switches{destination, parser}}: switches between master and standby source
 * after failed heartbeats (ours; Canal only alarms).</li>
 * </ul>
 * The {@code parser} label is {@code 0} for a destination's only parser and {@code 1}, {@code 2}, ... for the
 * members of a group, in configuration order.
 */
final class ParserCollector implements MetricsCollector {

    private static final String DESTINATION = "destination";
    private static final String PARSER = "parser";
    private static final String SINGLE_PARSER_ID = "0";

    private final InstanceRegistry registry;

    ParserCollector(InstanceRegistry registry) {
        this.registry = registry;
    }

    /** One parser of a destination and its {@code parser} label. */
    private record Labelled(String id, MysqlEventParser parser) {
    }

    @Override
    public List<MetricFamily> collect() {
        MetricFamily.Builder received = MetricFamily.builder("canal_instance_received_binlog_bytes", COUNTER,
                "Binlog bytes received from the source");
        MetricFamily.Builder mode = MetricFamily.builder("canal_instance_parser_mode", GAUGE,
                "Parser mode of the instance (parallel or serial), 1");
        MetricFamily.Builder blocking = MetricFamily.builder("canal_instance_publish_blocking_time", COUNTER,
                "Time the binlog reader waited to publish into the parallel decoding ring, ms");
        MetricFamily.Builder switches = MetricFamily.builder("canal_instance_source_switches", COUNTER,
                "Switches between master and standby source after failed heartbeats");
        boolean anyParallel = false;
        for (InstanceRegistry.Registered registered : registry.registered()) {
            CanalInstance instance = registered.instance();
            String destination = instance.getDestination();
            Set<Boolean> modes = new LinkedHashSet<>();
            for (Labelled labelled : parsersOf(instance.getEventParser())) {
                MysqlEventParser parser = labelled.parser();
                received.add(parser.receivedBinlogBytes(), DESTINATION, destination, PARSER, labelled.id());
                switches.add(parser.sourceSwitches(), DESTINATION, destination, PARSER, labelled.id());
                modes.add(parser.isParallel());
                if (parser.isParallel()) {
                    anyParallel = true;
                    blocking.add(TimeUnit.NANOSECONDS.toMillis(parser.publishBlockingNanos()), DESTINATION, destination,
                            PARSER, labelled.id());
                }
            }
            for (Boolean parallel : modes) {
                mode.add(1, DESTINATION, destination, "parallel", parallel.toString());
            }
        }
        return anyParallel ? List.of(received.build(), mode.build(), switches.build(), blocking.build())
                : List.of(received.build(), mode.build(), switches.build());
    }

    private static List<Labelled> parsersOf(EventParser parser) {
        List<Labelled> parsers = new ArrayList<>();
        if (parser instanceof MysqlEventParser mysql) {
            parsers.add(new Labelled(SINGLE_PARSER_ID, mysql));
        } else if (parser instanceof GroupEventParser group) {
            int id = 1;
            for (EventParser member : group.members()) {
                if (member instanceof MysqlEventParser mysql) {
                    parsers.add(new Labelled(Integer.toString(id), mysql));
                }
                id++;
            }
        }
        return parsers;
    }
}
