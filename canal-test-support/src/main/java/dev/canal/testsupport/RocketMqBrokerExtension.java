package dev.canal.testsupport;

/**
 * JUnit 5 extension handing a test class one {@link RocketMqBroker} (name server and broker) as a parameter of its
 * lifecycle or test methods; it starts on first use and stops after the class.
 */
public final class RocketMqBrokerExtension extends ClassFixtureExtension<RocketMqBroker> {

    public RocketMqBrokerExtension() {
        super(RocketMqBroker.class);
    }

    @Override
    RocketMqBroker start() throws Exception {
        return RocketMqBroker.start();
    }
}
