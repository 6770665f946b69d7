package dev.canal.testsupport;

/**
 * JUnit 5 extension handing a test class one {@link RabbitMqBroker} as a parameter of its lifecycle or test
 * methods; the broker starts on first use and stops after the class. Where RabbitMQ is not installed the class is
 * skipped, saying so.
 */
public final class RabbitMqBrokerExtension extends ClassFixtureExtension<RabbitMqBroker> {

    public RabbitMqBrokerExtension() {
        super(RabbitMqBroker.class);
    }

    @Override
    RabbitMqBroker start() throws Exception {
        return RabbitMqBroker.start();
    }
}
