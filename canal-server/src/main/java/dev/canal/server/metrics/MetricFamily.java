package dev.canal.server.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One metric as a scrape shows it: a name, a type, a help text and its samples. Names are written exactly as
 * given: nothing adds a {@code _total} suffix to a counter, as Canal's names have none.
 */
record MetricFamily(String name, MetricType type, String help, List<Sample> samples) {

    /** One label of a sample. */
    public record Label(String name, String value) {
        public Label {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value of label " + name);
        }
    }

    /**
     * One line of the exposition.
     *
     * @param name the family's name, or with a suffix for histograms and summaries ({@code _bucket}, {@code _sum})
     */
    public record Sample(String name, List<Label> labels, double value) {
        public Sample {
            labels = List.copyOf(labels);
        }
    }

    public MetricFamily {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type of " + name);
        samples = List.copyOf(samples);
    }

    public static Builder builder(String name, MetricType type, String help) {
        return new Builder(name, type, help);
    }

    /** Collects the samples of one family, labels given as name, value pairs. */
    public static final class Builder {

        private final String name;
        private final MetricType type;
        private final String help;
        private final List<Sample> samples = new ArrayList<>();

        private Builder(String name, MetricType type, String help) {
            this.name = name;
            this.type = type;
            this.help = help;
        }

        public Builder add(double value, String... labelPairs) {
            return addSuffixed("", value, labelPairs);
        }

        /** A sample named by the family's name and a suffix ({@code _bucket}, {@code _count}, {@code _sum}). */
        public Builder addSuffixed(String suffix, double value, String... labelPairs) {
            samples.add(new Sample(name + suffix, labels(labelPairs), value));
            return this;
        }

        public MetricFamily build() {
            return new MetricFamily(name, type, help, samples);
        }

        private List<Label> labels(String... pairs) {
            if (pairs.length % 2 != 0) {
                throw new IllegalArgumentException("labels of " + name + " must come in name, value pairs, got "
                        + List.of(pairs));
            }
            List<Label> labels = new ArrayList<>(pairs.length / 2);
            for (int i = 0; i < pairs.length; i += 2) {
                labels.add(new Label(pairs[i], pairs[i + 1]));
            }
            return labels;
        }
    }
}
