package dev.canal.server.ha;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlacementTest {

    private static final String A = "10.0.0.1:11111";
    private static final String B = "10.0.0.2:11111";
    private static final String C = "10.0.0.3:11111";

    @Test
    void theShareIsTheDestinationsOverTheServersRoundedUpPlusTheSlack() {
        assertThat(Placement.share(30, 1, 3, 0)).isEqualTo(10);
        assertThat(Placement.share(30, 1, 2, 0)).isEqualTo(15);
        assertThat(Placement.share(31, 1, 3, 0)).isEqualTo(11);
        assertThat(Placement.share(1, 1, 2, 0)).as("one destination, two servers").isEqualTo(1);
        assertThat(Placement.share(30, 1, 3, 2)).isEqualTo(12);
        assertThat(Placement.share(30, 1, 0, 0)).as("no server registered yet: this one alone").isEqualTo(30);
        assertThat(Placement.share(0, 1, 3, 0)).isZero();
    }

    @Test
    void aServerOfWeightTwoHasTwiceTheShareOfOneOfWeightOne() {
        assertThat(Placement.share(30, 2, 4, 0)).as("weights 2, 1, 1").isEqualTo(15);
        assertThat(Placement.share(30, 1, 4, 0)).isEqualTo(8);
        assertThat(Placement.share(31, 3, 4, 0)).as("weights 3 and 1").isEqualTo(24);
        assertThat(Placement.share(31, 1, 4, 0)).isEqualTo(8);
    }

    @Test
    void theSharesOfAllServersCoverEveryDestination() {
        int[][] clusters = {{1, 1, 1}, {2, 1, 1}, {3, 5, 7}, {1000, 1}, {1, 1, 1, 1, 1, 1, 1}};
        for (int[] weights : clusters) {
            int total = Arrays.stream(weights).sum();
            for (int destinations = 0; destinations <= 50; destinations++) {
                int covered = 0;
                for (int weight : weights) {
                    covered += Placement.share(destinations, weight, total, 0);
                }
                assertThat(covered).as("%d destinations over weights %s", destinations,
                        Arrays.toString(weights)).isGreaterThanOrEqualTo(destinations);
            }
        }
    }

    @Test
    void aServerClaimsOnlyBelowItsShare() {
        assertThat(Placement.mayClaim(9, 10)).isTrue();
        assertThat(Placement.mayClaim(10, 10)).isFalse();
        assertThat(Placement.mayClaim(0, 0)).isFalse();
    }

    @Test
    void aServerWithinItsShareMovesNothing() {
        assertThat(Placement.nextMove(A, 10, 10, Map.of("d1", 100L), loads(A, 10, 10, B, 0, 10))).isEmpty();
    }

    @Test
    void aServerOverItsShareMovesTheDestinationItRanLongestToTheLeastLoadedServer() {
        Map<String, Long> movable = Map.of("d1", 100L, "d2", 300L, "d3", 200L);

        assertThat(Placement.nextMove(A, 15, 10, movable, loads(A, 15, 10, B, 9, 10, C, 6, 10)))
                .contains(new Placement.Move("d2", C));
    }

    @Test
    void theTargetIsTheServerRunningTheFewestForItsShare() {
        // B runs 4 of 12 (a third), C runs 3 of 4 (three quarters): B is the lighter one
        assertThat(Placement.nextMove(A, 14, 8, Map.of("d1", 1L), loads(A, 14, 8, B, 4, 12, C, 3, 4)))
                .contains(new Placement.Move("d1", B));
    }

    @Test
    void tiesAreBrokenByNameSoEveryServerDecidesAlike() {
        Map<String, Long> movable = Map.of("d2", 100L, "d1", 100L);

        assertThat(Placement.nextMove(A, 12, 10, movable, loads(A, 12, 10, C, 4, 10, B, 4, 10)))
                .contains(new Placement.Move("d1", B));
    }

    @Test
    void noMoveWhenEveryOtherServerRunsItsShare() {
        assertThat(Placement.nextMove(A, 11, 10, Map.of("d1", 100L), loads(A, 11, 10, B, 10, 10, C, 4, 4)))
                .isEmpty();
    }

    @Test
    void noMoveWhileEveryDestinationIsWithinItsMinimumStay() {
        assertThat(Placement.nextMove(A, 30, 10, Map.of(), loads(A, 30, 10, B, 0, 10, C, 0, 10))).isEmpty();
    }

    @Test
    void theServerItselfIsNeverTheTarget() {
        assertThat(Placement.nextMove(A, 12, 10, Map.of("d1", 1L), loads(A, 12, 20))).isEmpty();
    }

    /** Servers as (address, running, share) triples. */
    private static Map<String, Placement.Load> loads(Object... triples) {
        Map<String, Placement.Load> loads = new HashMap<>();
        for (int i = 0; i < triples.length; i += 3) {
            loads.put((String) triples[i], new Placement.Load((Integer) triples[i + 1], (Integer) triples[i + 2]));
        }
        return loads;
    }
}
