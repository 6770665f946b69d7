package dev.canal.protocol.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class ValueConstraintTest {

    private static final ConfigKey RING = ConfigKey.ours("test.ring", "256", "A ring.").powerOfTwo();
    private static final ConfigKey PORT = ConfigKey.ours("test.port", "11111", "A port.").between(0, 65535);
    private static final ConfigKey MODE = ConfigKey.ours("test.mode", "spring", "A mode.").oneOf("spring", "manager");

    private static TypedProperties with(String key, String value) {
        Properties p = new Properties();
        p.setProperty(key, value);
        return new TypedProperties(p);
    }

    @Test
    void aValueOutsideTheDeclaredRangeFailsCarryingKeyAndValue() {
        assertThatThrownBy(() -> with("test.port", "70000").integer(PORT))
                .isInstanceOfSatisfying(ConfigValueException.class, e -> {
                    assertThat(e.key()).isEqualTo("test.port");
                    assertThat(e.value()).isEqualTo("70000");
                    assertThat(e.reason()).isEqualTo("must be 0 to 65535");
                });
        assertThat(with("test.port", "0").integer(PORT)).isZero();
    }

    @Test
    void aPowerOfTwoIsRequiredWhereDeclared() {
        assertThatThrownBy(() -> with("test.ring", "1000").integer(RING))
                .isInstanceOf(ConfigValueException.class)
                .hasMessage("invalid value '1000' for test.ring: must be a power of 2");
        assertThatThrownBy(() -> with("test.ring", "0").integer(RING)).isInstanceOf(ConfigValueException.class);
        assertThat(with("test.ring", "1024").integer(RING)).isEqualTo(1024);
    }

    @Test
    void oneOfComparesIgnoringCase() {
        assertThat(with("test.mode", "MANAGER").string(MODE)).isEqualTo("MANAGER");
        assertThatThrownBy(() -> with("test.mode", "remote").string(MODE))
                .isInstanceOf(ConfigValueException.class).hasMessageContaining("expected one of spring, manager");
    }

    @Test
    void aValueThatIsNoNumberFailsCarryingItsKey() {
        assertThatThrownBy(() -> with("test.port", "ten").integer(PORT))
                .isInstanceOfSatisfying(ConfigValueException.class, e -> assertThat(e.key()).isEqualTo("test.port"));
    }

    @Test
    void theConstraintIsDescribedForTheReference() {
        assertThat(PORT.constraint().describe()).isEqualTo("0 to 65535");
        assertThat(ConfigKey.ours("a", "1", "b").atLeast(1).constraint().describe()).isEqualTo("at least 1");
        assertThat(ConfigKey.ours("a", "1", "b").atMost(65535).constraint().describe()).isEqualTo("at most 65535");
        assertThat(ConfigKey.ours("a", "1", "b").constraint()).isNull();
    }

    @Test
    void aSecretIsNeverInTheMessage() {
        ConfigValueException e = ConfigValueException.secret("canal.passwd", "must be 40 hex digits");
        assertThat(e.getMessage()).isEqualTo("invalid value for canal.passwd: must be 40 hex digits");
        assertThat(e.value()).isNull();
    }
}
