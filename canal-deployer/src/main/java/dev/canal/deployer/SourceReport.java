package dev.canal.deployer;

import dev.canal.instance.CanalInstance;
import dev.canal.parse.SourceStatus;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The start's word on every destination it runs: waits a bounded time for each to reach its source, then logs one
 * line per destination, "streaming from host:port at position" or why it does not, which bin/startup.sh prints
 * (docs/operations.md). The destinations keep retrying whatever the report says.
 */
final class SourceReport {

    private static final Logger log = LoggerFactory.getLogger(SourceReport.class);
    private static final long POLL_MILLIS = 100;

    private SourceReport() {
    }

    /**
     * @param destinations  the destinations deployed here
     * @param instances     each one's instance, when it runs here
     * @param whyNotRunning for one that does not run here, why (lazy, standby); null to say nothing
     * @param wait          how long to wait for those still connecting
     */
    static void waitAndLog(List<String> destinations, Function<String, Optional<CanalInstance>> instances,
            Function<String, String> whyNotRunning, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        Map<String, List<SourceStatus>> statuses = statuses(destinations, instances);
        while (anyConnecting(statuses) && System.nanoTime() < deadline) {
            Thread.sleep(POLL_MILLIS);
            statuses = statuses(destinations, instances);
        }
        for (String destination : destinations) {
            String why = statuses.containsKey(destination) ? null : whyNotRunning.apply(destination);
            if (why != null) {
                log.info("destination {}: {}", destination, why);
            }
        }
        statuses.forEach((destination, sources) -> sources.forEach(status -> {
            if (status.state() == SourceStatus.State.STREAMING) {
                log.info("destination {}: {}", destination, status.describe());
            } else {
                log.warn("destination {}: {}", destination, status.describe()
                        + (status.state() == SourceStatus.State.CONNECTING ? " after " + wait.toSeconds() + " s" : ""));
            }
        }));
    }

    private static Map<String, List<SourceStatus>> statuses(List<String> destinations,
            Function<String, Optional<CanalInstance>> instances) {
        Map<String, List<SourceStatus>> statuses = new LinkedHashMap<>();
        for (String destination : destinations) {
            instances.apply(destination).ifPresent(instance ->
                    statuses.put(destination, instance.getEventParser().sourceStatuses()));
        }
        return statuses;
    }

    private static boolean anyConnecting(Map<String, List<SourceStatus>> statuses) {
        return statuses.values().stream().flatMap(List::stream)
                .anyMatch(status -> status.state() == SourceStatus.State.CONNECTING);
    }
}
