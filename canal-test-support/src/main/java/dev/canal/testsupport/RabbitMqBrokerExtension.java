package dev.canal.testsupport;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

/**
 * JUnit 5 extension handing a test class one {@link RabbitMqBroker} as a parameter of its lifecycle or test
 * methods; the broker starts on first use and stops after the class. Where RabbitMQ is not installed the class is
 * skipped, saying so.
 */
public final class RabbitMqBrokerExtension extends ClassFixtureExtension<RabbitMqBroker> implements BeforeAllCallback {

    public RabbitMqBrokerExtension() {
        super(RabbitMqBroker.class);
    }

    /** Runs before the class's own set-up asks for the broker, so a missing package skips rather than fails. */
    @Override
    public void beforeAll(ExtensionContext context) {
        if (RabbitMqBroker.script().isEmpty()) {
            // the build's summary counts a skipped class as no test at all: say here why it did not run
            LoggerFactory.getLogger(RabbitMqBrokerExtension.class).warn("{} skipped: {}", context.getDisplayName(),
                    RabbitMqBroker.NOT_INSTALLED);
        }
        Assumptions.assumeTrue(RabbitMqBroker.script().isPresent(), RabbitMqBroker.NOT_INSTALLED);
    }

    @Override
    RabbitMqBroker start() throws Exception {
        return RabbitMqBroker.start();
    }
}
