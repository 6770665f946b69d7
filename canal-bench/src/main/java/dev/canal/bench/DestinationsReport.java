package dev.canal.bench;

import java.util.List;

/** The "many destinations" question's Markdown tables: the daemons idle, then all destinations catching up. */
final class DestinationsReport {

    private static final double KIB_PER_MIB = 1024.0;
    /** The target: an idle destination costs at most this much resident memory. */
    private static final double TARGET_IDLE_MIB_PER_DESTINATION = 4.0;

    private DestinationsReport() {
    }

    static String markdown(List<DestinationsStage.Idle> idle, List<DestinationsStage.Loaded> loaded,
            long rowsPerDestination, String expectedDigest) {
        StringBuilder md = new StringBuilder();
        if (!idle.isEmpty()) {
            DestinationsStage.Idle one = idle.get(0);
            md.append("Many destinations, idle (every destination at the end of the binlog; after a full GC):\n\n")
                    .append("| destinations | heap | start-up s | RSS MiB | heap in use MiB | threads | idle CPU ms/s"
                            + " | per extra destination: RSS MiB | heap MiB | threads |\n"
                            + "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            for (DestinationsStage.Idle i : idle) {
                int extra = i.destinations() - one.destinations();
                md.append("| ").append(i.destinations()).append(" | ").append(heapLabel(i.heap(), i.destinations()))
                        .append(" | ").append(String.format("%.1f", i.startupSeconds()))
                        .append(" | ").append(mib(i.rssKb()))
                        .append(" | ").append(mib(i.heapUsedKb()))
                        .append(" | ").append(i.threads())
                        .append(" | ").append(String.format("%.1f", i.cpuMillisPerSecond()))
                        .append(" | ").append(extra <= 0 ? "-" : mib((i.rssKb() - one.rssKb()) / extra))
                        .append(" | ").append(extra <= 0 ? "-" : mib((i.heapUsedKb() - one.heapUsedKb()) / extra))
                        .append(" | ").append(extra <= 0 ? "-"
                                : String.format("%.1f", (double) (i.threads() - one.threads()) / extra))
                        .append(" |\n");
            }
            DestinationsStage.Idle most = idle.get(idle.size() - 1);
            if (most.destinations() > one.destinations()) {
                double perDestination = (most.rssKb() - one.rssKb()) / KIB_PER_MIB
                        / (most.destinations() - one.destinations());
                md.append("\nIdle resident memory per destination: ").append(String.format("%.2f", perDestination))
                        .append(" MiB (target at most ").append(TARGET_IDLE_MIB_PER_DESTINATION).append(": ")
                        .append(perDestination <= TARGET_IDLE_MIB_PER_DESTINATION ? "met" : "**missed**")
                        .append(").\n");
            }
            md.append('\n');
        }
        if (!loaded.isEmpty()) {
            md.append("Many destinations, all catching up at once (").append(String.format("%,d", rowsPerDestination))
                    .append(" row changes each, one official client per destination, batch 1000):\n\n")
                    .append("| destinations | heap | wall s | rows/s delivered (all) | server CPU µs/row | peak RSS MiB"
                            + " | peak RSS per destination MiB | peak threads | first done s | last done s"
                            + " | last / first | out of memory | every row | content check (first destination) |\n"
                            + "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|\n");
            for (DestinationsStage.Loaded l : loaded) {
                md.append("| ").append(l.destinations()).append(" | ").append(heapLabel(l.heap(), l.destinations()))
                        .append(" | ").append(String.format("%.1f", l.seconds()))
                        .append(" | ").append(String.format("%,.0f", l.rowsPerSecond()))
                        .append(" | ")
                        .append(String.format("%.1f", l.cpuNanos() / 1e3 / Math.max(1, l.rowsDelivered())))
                        .append(" | ").append(mib(l.peakRssKb()))
                        .append(" | ").append(mib(l.peakRssKb() / l.destinations()))
                        .append(" | ").append(l.peakThreads())
                        .append(" | ").append(String.format("%.1f", l.firstDoneSeconds()))
                        .append(" | ").append(String.format("%.1f", l.lastDoneSeconds()))
                        .append(" | ").append(String.format("%.2f", l.lastDoneSeconds() / l.firstDoneSeconds()))
                        .append(" | ").append(l.outOfMemory() ? "**yes**" : "no")
                        .append(" | ").append(l.allRows() && l.rowsDelivered() == rowsPerDestination * l.destinations()
                                ? "yes" : "**no** (" + l.rowsDelivered() + ")")
                        .append(" | ").append(l.digest().equals(expectedDigest) ? "ok" : "**FAILED**")
                        .append(" |\n");
            }
            md.append('\n');
        }
        return md.toString();
    }

    private static String heapLabel(DestinationsStage.Heap heap, int destinations) {
        return heap == DestinationsStage.Heap.SHIPPED ? "shipped"
                : "-Xmx" + (DestinationsStage.BASE_HEAP_MIB + DestinationsStage.HEAP_MIB_PER_DESTINATION * destinations)
                        + "m";
    }

    private static String mib(long kb) {
        return String.format("%.1f", kb / KIB_PER_MIB);
    }
}
