package dev.canal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClientIdentityTest {

    @Test
    void filterIsNotPartOfEquality() {
        ClientIdentity plain = new ClientIdentity("example", (short) 1001);
        ClientIdentity filtered = plain.withFilter("db\\..*");
        assertThat(filtered).isEqualTo(plain).hasSameHashCodeAs(plain);
        assertThat(filtered.filter()).isEqualTo("db\\..*");
        assertThat(filtered.hasFilter()).isTrue();
        assertThat(plain.hasFilter()).isFalse();
    }

    @Test
    void destinationAndClientIdDistinguishClients() {
        assertThat(new ClientIdentity("a", (short) 1001)).isNotEqualTo(new ClientIdentity("b", (short) 1001));
        assertThat(new ClientIdentity("a", (short) 1001)).isNotEqualTo(new ClientIdentity("a", (short) 1002));
    }

    @Test
    void nullFilterBecomesEmpty() {
        assertThat(new ClientIdentity("a", (short) 1, null).filter()).isEmpty();
    }
}
