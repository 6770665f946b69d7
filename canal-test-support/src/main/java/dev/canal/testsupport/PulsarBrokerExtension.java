package dev.canal.testsupport;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

/**
 * JUnit 5 extension handing a test class one {@link PulsarBroker} as a parameter of its lifecycle or test
 * methods; the broker starts on first use and stops after the class. Where the broker cannot run (no Java 21+, no
 * class path) the class is skipped, saying so.
 */
public final class PulsarBrokerExtension extends ClassFixtureExtension<PulsarBroker> implements BeforeAllCallback {

    public PulsarBrokerExtension() {
        super(PulsarBroker.class);
    }

    /** Runs before the class's own set-up asks for the broker, so a missing Java or class path skips, not fails. */
    @Override
    public void beforeAll(ExtensionContext context) {
        PulsarBroker.unavailable().ifPresent(reason -> {
            // the build's summary counts a skipped class as no test at all: say here why it did not run
            LoggerFactory.getLogger(PulsarBrokerExtension.class).warn("{} skipped: {}", context.getDisplayName(),
                    reason);
            Assumptions.abort(reason);
        });
    }

    @Override
    PulsarBroker start() throws Exception {
        return PulsarBroker.start();
    }
}
