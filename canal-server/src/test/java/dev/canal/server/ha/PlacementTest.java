package dev.canal.server.ha;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PlacementTest {

    private static final String A = "10.0.0.1:11111";
    private static final String B = "10.0.0.2:11111";
    private static final String C = "10.0.0.3:11111";

    @Test
    void theShareIsTheDestinationsOverTheServersRoundedUpPlusTheSlack() {
        assertThat(Placement.share(30, 3, 0)).isEqualTo(10);
        assertThat(Placement.share(30, 2, 0)).isEqualTo(15);
        assertThat(Placement.share(31, 3, 0)).isEqualTo(11);
        assertThat(Placement.share(1, 2, 0)).as("one destination, two servers").isEqualTo(1);
        assertThat(Placement.share(30, 3, 2)).isEqualTo(12);
        assertThat(Placement.share(30, 0, 0)).as("no server registered yet: this one alone").isEqualTo(30);
        assertThat(Placement.share(0, 3, 0)).isZero();
    }

    @Test
    void aServerClaimsOnlyBelowItsShare() {
        assertThat(Placement.mayClaim(9, 10)).isTrue();
        assertThat(Placement.mayClaim(10, 10)).isFalse();
        assertThat(Placement.mayClaim(0, 0)).isFalse();
    }

    @Test
    void aServerWithinItsShareMovesNothing() {
        assertThat(Placement.nextMove(A, 10, 10, Map.of("d1", 100L), Map.of(A, 10, B, 0))).isEmpty();
    }

    @Test
    void aServerOverItsShareMovesTheDestinationItRanLongestToTheLeastLoadedServer() {
        Map<String, Long> movable = Map.of("d1", 100L, "d2", 300L, "d3", 200L);

        assertThat(Placement.nextMove(A, 15, 10, movable, Map.of(A, 15, B, 9, C, 6)))
                .contains(new Placement.Move("d2", C));
    }

    @Test
    void tiesAreBrokenByNameSoEveryServerDecidesAlike() {
        Map<String, Long> movable = Map.of("d2", 100L, "d1", 100L);

        assertThat(Placement.nextMove(A, 12, 10, movable, Map.of(A, 12, C, 4, B, 4)))
                .contains(new Placement.Move("d1", B));
    }

    @Test
    void noMoveWhenEveryOtherServerRunsItsShare() {
        assertThat(Placement.nextMove(A, 11, 10, Map.of("d1", 100L), Map.of(A, 11, B, 10, C, 10))).isEmpty();
    }

    @Test
    void noMoveWhileEveryDestinationIsWithinItsMinimumStay() {
        assertThat(Placement.nextMove(A, 30, 10, Map.of(), Map.of(A, 30, B, 0, C, 0))).isEmpty();
    }

    @Test
    void theServerItselfIsNeverTheTarget() {
        assertThat(Placement.nextMove(A, 12, 10, Map.of("d1", 1L), Map.of(A, 12))).isEmpty();
    }
}
