package dev.canal.server.metrics;

/** The metric types of the Prometheus text format that the exporter writes. */
enum MetricType {
    COUNTER("counter"),
    GAUGE("gauge"),
    HISTOGRAM("histogram"),
    SUMMARY("summary");

    private final String text;

    MetricType(String text) {
        this.text = text;
    }

    /** The word on the {@code # TYPE} line. */
    public String text() {
        return text;
    }
}
