package dev.canal.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Reads a JFR recording of a stage JVM ({@code bench/run.sh --profile true} writes one per stage run) and prints, as
 * Markdown, where the Java code's time and allocations went: execution samples by thread, by the method running
 * (self) and by the first method of ours on the stack (the part of the server that asked for the work), and the
 * sampled allocations by the method of ours that allocated. JFR samples Java code only: the JIT, the collector
 * and system calls are costed by the thread table of the report.
 *
 * <pre>
 * java -cp "canal-bench/target/canal-bench.jar:canal-bench/target/lib/*" dev.canal.bench.JfrSummary FILE.jfr [TOP]
 * </pre>
 */
public final class JfrSummary {

    private static final String OURS = "dev.canal.";
    private static final int DEFAULT_TOP = 20;

    private final Map<String, Long> byThread = new HashMap<>();
    private final Map<String, Long> bySelf = new HashMap<>();
    private final Map<String, Long> byOurs = new HashMap<>();
    private final Map<String, Long> allocatedByOurs = new HashMap<>();
    private long samples;
    private long allocated;

    private JfrSummary() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: JfrSummary FILE.jfr [TOP]");
            System.exit(2);
        }
        int top = args.length > 1 ? Integer.parseInt(args[1]) : DEFAULT_TOP;
        JfrSummary summary = new JfrSummary();
        for (RecordedEvent event : RecordingFile.readAllEvents(Path.of(args[0]))) {
            summary.add(event);
        }
        System.out.print(summary.markdown(top));
    }

    private void add(RecordedEvent event) {
        String type = event.getEventType().getName();
        RecordedStackTrace stack = event.getStackTrace();
        if (stack == null || stack.getFrames().isEmpty()) {
            return;
        }
        if (type.equals("jdk.ExecutionSample")) {
            samples++;
            RecordedThread thread = event.getThread("sampledThread");
            byThread.merge(thread == null ? "?" : ServerStats.groupOf(thread.getJavaName()), 1L, Long::sum);
            bySelf.merge(method(stack.getFrames().get(0)), 1L, Long::sum);
            byOurs.merge(firstOfOurs(stack.getFrames()), 1L, Long::sum);
        } else if (type.equals("jdk.ObjectAllocationSample")) {
            long weight = event.getLong("weight");
            allocated += weight;
            allocatedByOurs.merge(firstOfOurs(stack.getFrames()), weight, Long::sum);
        }
    }

    private static String method(RecordedFrame frame) {
        String type = frame.getMethod().getType().getName();
        return type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethod().getName();
    }

    /** The innermost frame of our code, with the method it called when that is not ours (a JDK or library call). */
    private static String firstOfOurs(List<RecordedFrame> frames) {
        for (int i = 0; i < frames.size(); i++) {
            if (frames.get(i).getMethod().getType().getName().startsWith(OURS)) {
                return method(frames.get(i)) + (i == 0 ? "" : " > " + method(frames.get(i - 1)));
            }
        }
        return "(no frame of ours) " + method(frames.get(0));
    }

    private String markdown(int top) {
        StringBuilder md = new StringBuilder();
        md.append(table("Execution samples by thread", "thread", byThread, samples, top));
        md.append(table("Execution samples by the method running", "method", bySelf, samples, top));
        md.append(table("Execution samples by the innermost method of ours (> what it called)", "method", byOurs,
                samples, top));
        md.append(table("Sampled allocation by the innermost method of ours (> what it called), share of "
                + String.format("%,d", allocated >> 20) + " MiB sampled", "method", allocatedByOurs, allocated, top));
        return md.toString();
    }

    private static String table(String title, String what, Map<String, Long> counts, long total, int top) {
        StringBuilder t = new StringBuilder(title).append(" (").append(String.format("%,d", total))
                .append(")\n\n| ").append(what).append(" | share |\n|---|---:|\n");
        counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
                .limit(top).forEach(e -> t.append("| `").append(e.getKey()).append("` | ")
                        .append(String.format("%.1f%%", 100.0 * e.getValue() / Math.max(1, total))).append(" |\n"));
        return t.append('\n').toString();
    }
}
