package dev.canal.server.ha;

import java.util.Comparator;
import java.util.Map;
import java.util.Optional;

/**
 * The arithmetic of balanced placement (docs/high-availability.md, "Spreading destinations over servers"): a
 * server's share of the destinations, whether it may take one more, and which destination a server over its share
 * hands to which server. Pure: the callers read the cluster from ZooKeeper.
 */
final class Placement {

    /** A destination to hand over, and the server invited to take it. */
    record Move(String destination, String to) {
    }

    private Placement() {
    }

    /**
     * The most destinations one server should run: {@code destinations} over {@code servers}, rounded up, plus
     * {@code slack}. A server that sees no live server (itself not registered yet) counts itself.
     */
    static int share(int destinations, int servers, int slack) {
        int n = Math.max(1, servers);
        return (destinations + n - 1) / n + slack;
    }

    /** Whether a server running {@code running} destinations may take one more. */
    static boolean mayClaim(int running, int share) {
        return running < share;
    }

    /**
     * The move a server over its share makes next, if any: of the destinations it has run at least the minimum stay
     * ({@code movable}, with how long each has run), the one run longest (ties by name), to the live server other
     * than itself with the fewest destinations, provided that one is below its share (ties by address, so two
     * servers deciding at once agree). None when the server is within its share or nobody can take one.
     *
     * @param loads how many destinations each live server runs (servers running none included, with 0)
     */
    static Optional<Move> nextMove(String self, int running, int share, Map<String, Long> movable,
            Map<String, Integer> loads) {
        if (running <= share || movable.isEmpty()) {
            return Optional.empty();
        }
        Optional<Map.Entry<String, Integer>> target = loads.entrySet().stream()
                .filter(e -> !e.getKey().equals(self) && e.getValue() < share)
                .min(Map.Entry.<String, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey()));
        if (target.isEmpty()) {
            return Optional.empty();
        }
        String destination = movable.entrySet().stream()
                .max(Map.Entry.<String, Long>comparingByValue()
                        .thenComparing(Map.Entry.comparingByKey(Comparator.reverseOrder())))
                .orElseThrow().getKey();
        return Optional.of(new Move(destination, target.get().getKey()));
    }
}
