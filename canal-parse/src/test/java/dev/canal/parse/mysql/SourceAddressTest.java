package dev.canal.parse.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.protocol.position.LogIdentity;
import org.junit.jupiter.api.Test;

class SourceAddressTest {

    @Test
    void namesThatResolveToTheSameAddressAreOneSource() {
        assertThat(SourceAddress.same(LogIdentity.of("localhost", 3306), LogIdentity.of("127.0.0.1", 3306))).isTrue();
        assertThat(SourceAddress.same(LogIdentity.of("DB.example", 3306), LogIdentity.of("db.example", 3306))).isTrue();
    }

    @Test
    void anotherHostOrPortIsAnotherSource() {
        assertThat(SourceAddress.same(LogIdentity.of("127.0.0.1", 3306), LogIdentity.of("127.0.0.1", 3307))).isFalse();
        assertThat(SourceAddress.same(LogIdentity.of("127.0.0.1", 3306), LogIdentity.of("127.0.0.2", 3306))).isFalse();
    }

    @Test
    void aPositionWithoutItsSourceIsTakenAsTheConfiguredOnes() {
        assertThat(SourceAddress.same(null, LogIdentity.of("127.0.0.1", 3306))).isTrue();
    }
}
