package dev.canal.connector.pulsar;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PartitionPropertyRouterTest {

    @Test
    void thePropertyNamesThePartition() {
        assertThat(PartitionPropertyRouter.partition("2", 4)).isEqualTo(2);
    }

    @Test
    void aPartitionBeyondTheTopicsCountWrapsAroundAsInCanal() {
        assertThat(PartitionPropertyRouter.partition("5", 4)).isEqualTo(1);
        assertThat(PartitionPropertyRouter.partition("4", 4)).isZero();
    }

    @Test
    void aMissingOrUnreadablePropertyMeansPartitionZero() {
        assertThat(PartitionPropertyRouter.partition(null, 3)).isZero();
        assertThat(PartitionPropertyRouter.partition("", 3)).isZero();
        assertThat(PartitionPropertyRouter.partition("x", 3)).isZero();
    }
}
