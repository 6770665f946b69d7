package dev.canal.bench;

import java.util.List;

/** The steady-state question's Markdown table: the raw dump beside the whole catch-up and its warm part. */
final class SteadyReport {

    private static final double MIB = 1 << 20;
    /** The target: into-store CPU per row, warm. */
    private static final double TARGET_WARM_CPU_MICROS = 1.0;

    private SteadyReport() {
    }

    static String markdown(BenchTable.Shape shape, Workload.Loaded loaded, StageResult raw,
            List<StageResult> steady) {
        double bytesPerRow = (double) raw.bytes() / loaded.rowChanges();
        StringBuilder md = new StringBuilder();
        md.append("Steady state: one catch-up of ").append(String.format("%,d", loaded.rowChanges()))
                .append(" row changes of shape ").append(shape.label).append(" (")
                .append(String.format("%.0f", bytesPerRow)).append(" binlog bytes per row change, ")
                .append(String.format("%.1f", raw.bytes() / MIB)).append(" MiB), parallel parser into the store,"
                        + " the server's heap; the raw dump reads the same binlog without decoding it:\n\n")
                .append("| part | rows/s | MiB/s binlog | wall s | CPU µs/row | peak RSS MiB |\n"
                        + "|---|---:|---:|---:|---:|---:|\n");
        row(md, "raw dump (physical limit)", raw, raw.rows() == 0 ? loaded.rowChanges() : raw.rows(), raw.bytes());
        for (StageResult r : steady) {
            row(md, r.stage(), r, r.rows(), (long) (bytesPerRow * r.rows()));
        }
        StageResult warm = steady.get(steady.size() - 1);
        double warmCpu = warm.cpuNanos() / 1e3 / warm.rows();
        md.append("\nInto-store CPU per row, warm: ").append(String.format("%.2f", warmCpu))
                .append(" µs (target at most ").append(TARGET_WARM_CPU_MICROS).append(": ")
                .append(warmCpu <= TARGET_WARM_CPU_MICROS ? "met" : "**missed**").append(").\n\n");
        return md.toString();
    }

    private static void row(StringBuilder md, String part, StageResult r, long rows, long bytes) {
        double seconds = r.seconds();
        md.append("| ").append(part)
                .append(" | ").append(String.format("%,.0f", rows / seconds))
                .append(" | ").append(String.format("%.1f", bytes / MIB / seconds))
                .append(" | ").append(String.format("%.2f", seconds))
                .append(" | ").append(String.format("%.2f", r.cpuNanos() / 1e3 / rows))
                .append(" | ").append(r.peakRssKb() / 1024).append(" |\n");
    }
}
