package dev.canal.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TextFormatTest {

    @Test
    void countersKeepTheirNameWithoutATotalSuffix() {
        MetricFamily family = MetricFamily.builder("canal_instance_put_rows", MetricType.COUNTER, "Rows put")
                .add(42, "destination", "example").build();

        assertThat(TextFormat.write(List.of(family))).isEqualTo("""
                # HELP canal_instance_put_rows Rows put
                # TYPE canal_instance_put_rows counter
                canal_instance_put_rows{destination="example"} 42.0
                """);
    }

    @Test
    void labelValuesAndHelpAreEscaped() {
        MetricFamily family = MetricFamily.builder("m", MetricType.GAUGE, "line\\one\nline \"two\"")
                .add(1, "destination", "a\"b\\c\nd").build();

        assertThat(TextFormat.write(List.of(family))).isEqualTo("""
                # HELP m line\\\\one\\nline "two"
                # TYPE m gauge
                m{destination="a\\"b\\\\c\\nd"} 1.0
                """);
    }

    @Test
    void familiesWithoutSamplesAreLeftOut() {
        MetricFamily empty = MetricFamily.builder("canal_instance_traffic_delay", MetricType.GAUGE, "delay").build();
        MetricFamily plain = MetricFamily.builder("up", MetricType.GAUGE, "").add(1).build();

        assertThat(TextFormat.write(List.of(empty, plain))).isEqualTo("# HELP up \n# TYPE up gauge\nup 1.0\n");
    }

    @Test
    void specialNumbersAreWrittenTheWayPrometheusReadsThem() {
        assertThat(TextFormat.number(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
        assertThat(TextFormat.number(Double.NEGATIVE_INFINITY)).isEqualTo("-Inf");
        assertThat(TextFormat.number(Double.NaN)).isEqualTo("NaN");
        assertThat(TextFormat.number(2.5)).isEqualTo("2.5");
        assertThat(TextFormat.number(-1)).isEqualTo("-1.0");
    }

    @Test
    void oddLabelListsAreRefused() {
        assertThatThrownBy(() -> MetricFamily.builder("m", MetricType.GAUGE, "").add(1, "destination"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pairs");
    }
}
