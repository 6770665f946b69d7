package dev.canal.deployer;

import java.util.Collection;
import java.util.Optional;

/**
 * Which declared key an unknown one was probably meant to be: the closest by edit distance (insertions, deletions,
 * substitutions and swaps of two neighbouring characters), when it is close enough to be a slip of the keyboard
 * rather than another key altogether.
 */
final class KeySpelling {

    /** At most this many edits, and at most one per {@value #CHARACTERS_PER_EDIT} characters of the key. */
    static final int MAX_EDITS = 3;
    static final int CHARACTERS_PER_EDIT = 4;

    private KeySpelling() {
    }

    /** The candidate {@code key} most probably misspells; empty when none is close enough or two are equally close. */
    static Optional<String> closest(String key, Collection<String> candidates) {
        int allowed = Math.min(MAX_EDITS, Math.max(1, key.length() / CHARACTERS_PER_EDIT));
        String best = null;
        int bestDistance = allowed + 1;
        boolean tie = false;
        for (String candidate : candidates) {
            if (Math.abs(candidate.length() - key.length()) > allowed) {
                continue;
            }
            int distance = distance(key, candidate);
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
                tie = false;
            } else if (distance == bestDistance && !candidate.equals(best)) {
                tie = true;
            }
        }
        return best == null || tie || bestDistance == 0 ? Optional.empty() : Optional.of(best);
    }

    /** Edits from {@code a} to {@code b}, a swap of neighbours counting as one (optimal string alignment). */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int best = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    best = Math.min(best, d[i - 2][j - 2] + 1);
                }
                d[i][j] = best;
            }
        }
        return d[a.length()][b.length()];
    }
}
