package dev.canal.testsupport;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Collects what one logger and its children log while attached. Unlike Logback's {@code ListAppender}, it may be
 * read while the server's threads are still logging: readers get a copy taken under the same lock as the writes.
 */
public final class LogCapture extends AppenderBase<ILoggingEvent> implements AutoCloseable {

    private final Logger logger;
    private final List<ILoggingEvent> events = new ArrayList<>();

    private LogCapture(Logger logger) {
        this.logger = logger;
    }

    /** Starts collecting what the named logger (a package or class name) and the loggers below it log. */
    public static LogCapture attach(String loggerName) {
        LogCapture capture = new LogCapture((Logger) LoggerFactory.getLogger(loggerName));
        capture.start();
        capture.logger.addAppender(capture);
        return capture;
    }

    /** Starts collecting everything that is logged. */
    public static LogCapture attachToRoot() {
        return attach(org.slf4j.Logger.ROOT_LOGGER_NAME);
    }

    @Override
    protected void append(ILoggingEvent event) {
        event.prepareForDeferredProcessing();
        synchronized (events) {
            events.add(event);
        }
    }

    /** The events collected so far, in the order they were logged. */
    public List<ILoggingEvent> events() {
        synchronized (events) {
            return List.copyOf(events);
        }
    }

    /** The formatted messages collected so far. */
    public List<String> messages() {
        return events().stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    /** The formatted messages logged at exactly this level. */
    public List<String> messages(Level level) {
        return events().stream().filter(e -> e.getLevel() == level).map(ILoggingEvent::getFormattedMessage).toList();
    }

    /** Stops collecting; what was collected stays readable. */
    @Override
    public void close() {
        logger.detachAppender(this);
        stop();
    }
}
