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

    /** What a live server runs, and its share. */
    record Load(int running, int share) {

        /** Whether this server is less loaded for its share than {@code other}: running / share compared. */
        boolean lighterThan(Load other) {
            return (long) running * other.share < (long) other.running * share;
        }
    }

    private static final Comparator<Map.Entry<String, Load>> LIGHTEST_FIRST =
            Comparator.<Map.Entry<String, Load>, Load>comparing(Map.Entry::getValue,
                    (x, y) -> x.lighterThan(y) ? -1 : y.lighterThan(x) ? 1 : 0)
                    .thenComparing(Map.Entry::getKey);

    private Placement() {
    }

    /**
     * The most destinations one server should run: its weight's part of {@code destinations}, rounded up, plus
     * {@code slack}. With every weight 1 that is the destinations over the servers, rounded up; the shares of all
     * servers add up to at least {@code destinations}.
     *
     * @param weight      this server's weight
     * @param totalWeight the weights of all live servers, this one's included
     */
    static int share(int destinations, int weight, int totalWeight, int slack) {
        int total = Math.max(weight, totalWeight);
        return (int) (((long) destinations * weight + total - 1) / total) + slack;
    }

    /** Whether a server running {@code running} destinations may take one more. */
    static boolean mayClaim(int running, int share) {
        return running < share;
    }

    /**
     * The move a server over its share makes next, if any: of the destinations it has run at least the minimum stay
     * ({@code movable}, with how long each has run), the one run longest (ties by name), to the live server other
     * than itself that runs the fewest destinations for its share, provided that one is below its share (ties by
     * address, so two servers deciding at once agree). None when the server is within its share or nobody can take
     * one.
     *
     * @param servers what each live server runs and its share (servers running none included)
     */
    static Optional<Move> nextMove(String self, int running, int share, Map<String, Long> movable,
            Map<String, Load> servers) {
        if (running <= share || movable.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> target = servers.entrySet().stream()
                .filter(e -> !e.getKey().equals(self) && e.getValue().running() < e.getValue().share())
                .min(LIGHTEST_FIRST)
                .map(Map.Entry::getKey);
        if (target.isEmpty()) {
            return Optional.empty();
        }
        String destination = movable.entrySet().stream()
                .max(Map.Entry.<String, Long>comparingByValue()
                        .thenComparing(Map.Entry.comparingByKey(Comparator.reverseOrder())))
                .orElseThrow().getKey();
        return Optional.of(new Move(destination, target.get()));
    }
}
