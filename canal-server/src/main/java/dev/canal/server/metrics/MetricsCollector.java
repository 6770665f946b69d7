package dev.canal.server.metrics;

import java.util.List;

/** Reads a part of the process's state into metric families, at scrape time. */
@FunctionalInterface
interface MetricsCollector {

    List<MetricFamily> collect();
}
