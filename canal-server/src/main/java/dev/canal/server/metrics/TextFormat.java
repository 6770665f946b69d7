package dev.canal.server.metrics;

import java.util.List;

/**
 * Writes metric families in the Prometheus text exposition format, version 0.0.4: a HELP and a TYPE line per
 * family with samples, then one line per sample. Families without samples are left out.
 */
final class TextFormat {

    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private TextFormat() {
    }

    public static String write(List<MetricFamily> families) {
        StringBuilder out = new StringBuilder(8192);
        for (MetricFamily family : families) {
            if (family.samples().isEmpty()) {
                continue;
            }
            out.append("# HELP ").append(family.name()).append(' ');
            escape(out, family.help() == null ? "" : family.help(), false);
            out.append('\n');
            out.append("# TYPE ").append(family.name()).append(' ').append(family.type().text()).append('\n');
            for (MetricFamily.Sample sample : family.samples()) {
                out.append(sample.name());
                if (!sample.labels().isEmpty()) {
                    out.append('{');
                    for (int i = 0; i < sample.labels().size(); i++) {
                        MetricFamily.Label label = sample.labels().get(i);
                        out.append(i == 0 ? "" : ",").append(label.name()).append("=\"");
                        escape(out, label.value(), true);
                        out.append('"');
                    }
                    out.append('}');
                }
                out.append(' ').append(number(sample.value())).append('\n');
            }
        }
        return out.toString();
    }

    /** Numbers as Go prints them, which Prometheus parses: {@code +Inf}, {@code -Inf}, {@code NaN}. */
    public static String number(double value) {
        if (value == Double.POSITIVE_INFINITY) {
            return "+Inf";
        }
        if (value == Double.NEGATIVE_INFINITY) {
            return "-Inf";
        }
        return Double.isNaN(value) ? "NaN" : Double.toString(value);
    }

    /** Backslash and line feed are escaped in help texts; label values also escape the double quote. */
    private static void escape(StringBuilder out, String text, boolean labelValue) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '"' -> out.append(labelValue ? "\\\"" : "\"");
                default -> out.append(c);
            }
        }
    }
}
