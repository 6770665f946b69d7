package dev.canal.reliability;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a consumer received, held against what the writer committed (ids 1..n per table): the rows lost, the
 * rows received more than once, and every breach of order: within one client session a table's ids must follow
 * each other without a gap (binlog order), and a new session may go back (re-delivery of the unacked tail) but
 * never start past the next id not yet received.
 */
record DeliveryCheck(long written, long received, long distinct, long lost, long duplicated, Set<String> missing,
        List<String> orderBreaches) {

    static DeliveryCheck of(Map<String, Integer> committed, List<ReceivedRow> rows) {
        Set<String> seen = new HashSet<>();
        Map<String, Integer> highestSeen = new HashMap<>();
        Map<String, Integer> lastInSession = new HashMap<>();
        List<String> breaches = new ArrayList<>();
        for (ReceivedRow row : rows) {
            String key = row.session() + "/" + row.table();
            Integer previous = lastInSession.get(key);
            int highest = highestSeen.getOrDefault(row.table(), 0);
            if (previous == null ? row.id() > highest + 1 : row.id() != previous + 1) {
                breaches.add(row.table() + " id " + row.id() + " at " + row.position() + " in session " + row.session()
                        + " after " + (previous == null ? "highest earlier id " + highest : "id " + previous));
            }
            if (row.id() > committed.getOrDefault(row.table(), 0)) {
                breaches.add(row.table() + " id " + row.id() + " was never committed");
            }
            lastInSession.put(key, row.id());
            highestSeen.merge(row.table(), row.id(), Math::max);
            seen.add(row.table() + "#" + row.id());
        }
        Set<String> missing = new TreeSet<>();
        committed.forEach((table, n) -> {
            for (int id = 1; id <= n; id++) {
                if (!seen.contains(table + "#" + id)) {
                    missing.add(table + "#" + id);
                }
            }
        });
        long written = committed.values().stream().mapToLong(Integer::longValue).sum();
        return new DeliveryCheck(written, rows.size(), seen.size(), missing.size(), rows.size() - seen.size(),
                missing, List.copyOf(breaches));
    }

    /** The sum of two independent runs (trials with a schema each). */
    DeliveryCheck plus(DeliveryCheck other) {
        Set<String> allMissing = new TreeSet<>(missing);
        allMissing.addAll(other.missing);
        List<String> allBreaches = new ArrayList<>(orderBreaches);
        allBreaches.addAll(other.orderBreaches);
        return new DeliveryCheck(written + other.written, received + other.received, distinct + other.distinct,
                lost + other.lost, duplicated + other.duplicated, allMissing, List.copyOf(allBreaches));
    }

    static DeliveryCheck none() {
        return new DeliveryCheck(0, 0, 0, 0, 0, Set.of(), List.of());
    }

    @Override
    public String toString() {
        return "written " + written + ", received " + received + " (" + distinct + " distinct), lost " + lost
                + (missing.isEmpty() ? "" : " " + first(missing)) + ", duplicated " + duplicated + ", order breaches "
                + orderBreaches.size() + (orderBreaches.isEmpty() ? "" : " " + orderBreaches.subList(0, Math.min(5, orderBreaches.size())));
    }

    private static List<String> first(Set<String> items) {
        return items.stream().limit(10).toList();
    }
}
