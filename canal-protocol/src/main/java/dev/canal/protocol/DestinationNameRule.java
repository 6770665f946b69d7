package dev.canal.protocol;

import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The one rule for a destination name that comes from outside the configuration files: a client's request, the
 * admin port, canal-admin's instance list, a node read from ZooKeeper. Such a name becomes an MDC value (and so a
 * per-destination log file's name), a metric label, a ZooKeeper path and a folder of the conf dir, so it is
 * checked before it reaches any of them (docs/security.md).
 *
 * <p>A well-formed destination, and a well-formed consumer of {@code destination@consumer}, is 1 to
 * {@value #MAX_PART_LENGTH} letters, digits, {@code _}, {@code -} and {@code .}, starting with a letter, a digit or
 * {@code _}: no path separator, no {@code ..}, nothing a log line or a path would read differently. A client may
 * further name only a destination that is deployed on the server it asks.
 */
public final class DestinationNameRule {

    public static final int MAX_PART_LENGTH = 128;

    private static final Pattern PART = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0," + (MAX_PART_LENGTH - 1) + "}");

    private DestinationNameRule() {
    }

    /** Whether {@code destination} may name a destination. */
    public static boolean isWellFormed(String destination) {
        return destination != null && PART.matcher(destination).matches();
    }

    /** Whether {@code subscribed} is a well-formed destination, or {@code destination@consumer} with both well formed. */
    public static boolean isWellFormedSubscription(String subscribed) {
        if (subscribed == null) {
            return false;
        }
        int at = subscribed.indexOf(ConsumerName.SEPARATOR);
        if (at < 0) {
            return isWellFormed(subscribed);
        }
        return isWellFormed(subscribed.substring(0, at)) && isWellFormed(subscribed.substring(at + 1));
    }

    /**
     * Checks what a client subscribed to, or asks about.
     *
     * @param deployed whether a destination is deployed here
     * @return null when {@code subscribed} is well formed and its destination deployed, else why not, in a sentence
     *     that quotes the name safely
     */
    public static String refusal(String subscribed, Predicate<String> deployed) {
        if (!isWellFormedSubscription(subscribed)) {
            return "destination " + UntrustedText.quote(subscribed) + " is not a valid name (letters, digits, _, - and"
                    + " ., at most " + MAX_PART_LENGTH + " characters, optionally @consumer)";
        }
        if (!deployed.test(ConsumerName.destinationOf(subscribed))) {
            return "destination " + UntrustedText.quote(subscribed) + " is not deployed on this server";
        }
        return null;
    }
}
