package dev.canal.testsupport;

/**
 * JUnit 5 extension handing a test class one {@link KafkaBroker} as a parameter of its lifecycle or test
 * methods; the broker starts on first use and stops after the class.
 *
 * <pre>{@code
 * @ExtendWith(KafkaBrokerExtension.class)
 * class SomethingIT {
 *     @BeforeAll static void topics(KafkaBroker broker) { ... }
 * }
 * }</pre>
 */
public final class KafkaBrokerExtension extends ClassFixtureExtension<KafkaBroker> {

    public KafkaBrokerExtension() {
        super(KafkaBroker.class);
    }

    @Override
    KafkaBroker start() throws Exception {
        return KafkaBroker.start();
    }
}
