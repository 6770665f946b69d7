package dev.canal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class DestinationNameRuleTest {

    private static final Set<String> DEPLOYED = Set.of("example", "orders-2");

    @ParameterizedTest
    @ValueSource(strings = {"example", "orders-2", "example@billing", "example@b.i_l-l", "_x", "db.orders"})
    void wellFormedNamesOfDeployedDestinationsAreAccepted(String name) {
        String destination = ConsumerName.destinationOf(name);
        assertThat(DestinationNameRule.refusal(name, d -> d.equals(destination))).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "../../tmp/x", "/etc", "a/b", ".hidden", "..", "-x", "a b", "line\nforged",
            "example@", "@billing", "example@a@b", "example@../x", "caf\u00e9", "x\u0000y"})
    void namesThatAreNoPlainWordsAreRefusedWhateverIsDeployed(String name) {
        assertThat(DestinationNameRule.refusal(name, d -> true)).contains("is not a valid name");
    }

    @Test
    void aWellFormedNameThatIsNotDeployedIsRefused() {
        assertThat(DestinationNameRule.refusal("other@billing", DEPLOYED::contains))
                .isEqualTo("destination 'other@billing' is not deployed on this server");
    }

    @Test
    void overlongPartsAreRefused() {
        String longest = "d".repeat(DestinationNameRule.MAX_PART_LENGTH);
        assertThat(DestinationNameRule.isWellFormed(longest)).isTrue();
        assertThat(DestinationNameRule.isWellFormed(longest + "d")).isFalse();
        assertThat(DestinationNameRule.isWellFormedSubscription("example@" + longest + "d")).isFalse();
    }

    @Test
    void aRefusalQuotesTheNameEscapedAndCut() {
        String refusal = DestinationNameRule.refusal("x\n2026-01-01 ERROR forged" + "y".repeat(100), d -> true);

        assertThat(refusal).doesNotContain("\n").contains("x\\u000a2026").contains("(125 characters)");
    }
}
