package dev.canal.bench;

/** The big-and-wide question's Markdown table. */
final class WideReport {

    private static final double MIB = 1 << 20;

    private WideReport() {
    }

    static String markdown(int tables, int columns, Workload.Loaded loaded, StageResult raw, WideStage.Result wide) {
        StageResult r = wide.run();
        double seconds = r.seconds();
        return "Big and wide: " + tables + " tables of " + columns + " columns, one transaction of "
                + String.format("%,d", loaded.rowChanges()) + " inserted rows spread over them ("
                + String.format("%.1f", raw.bytes() / MIB) + " MiB of binlog, "
                + String.format("%.0f", (double) raw.bytes() / loaded.rowChanges()) + " bytes per row); our server"
                + " with the server's heap, the official client with batch 1000:\n\n"
                + "| part | rows/s | column values/s | MiB/s binlog | wall s | CPU µs/row | peak RSS MiB"
                + " | first row after s | every row and value |\n|---|---:|---:|---:|---:|---:|---:|---:|---|\n"
                + "| raw dump (physical limit) | " + String.format("%,.0f", loaded.rowChanges() / raw.seconds())
                + " | " + String.format("%,.0f", (double) loaded.rowChanges() * columns / raw.seconds())
                + " | " + String.format("%.1f", raw.bytes() / MIB / raw.seconds())
                + " | " + String.format("%.2f", raw.seconds()) + " | " + String.format("%.2f",
                        raw.cpuNanos() / 1e3 / loaded.rowChanges()) + " | " + raw.peakRssKb() / 1024 + " | - | - |\n"
                + "| " + r.stage() + " | " + String.format("%,.0f", r.rows() / seconds)
                + " | " + String.format("%,.0f", wide.columnValues() / seconds)
                + " | " + String.format("%.1f", raw.bytes() / MIB / seconds)
                + " | " + String.format("%.2f", seconds) + " | " + String.format("%.2f", r.cpuNanos() / 1e3 / r.rows())
                + " | " + r.peakRssKb() / 1024 + " | " + String.format("%.1f", wide.firstRowSeconds())
                + " | " + (r.rows() == loaded.rowChanges() && wide.columnValues() == loaded.rowChanges() * columns
                        ? "yes" : "**no** (" + r.rows() + " rows, " + wide.columnValues() + " values)") + " |\n\n";
    }
}
