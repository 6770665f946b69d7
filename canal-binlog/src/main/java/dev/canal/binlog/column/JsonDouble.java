package dev.canal.binlog.column;

import dev.canal.binlog.io.MalformedDataException;

/**
 * A JSON double as Canal prints it: Java's {@link Double#toString(double)} ({@code 0.1}, {@code 1.0},
 * {@code -3.0E-7}, {@code 1.0E22}). MySQL's {@code SELECT} prints some of these differently ({@code -0.0000003},
 * {@code 1e22}); both are valid JSON for the same double, and Canal's clients see Java's form
 * (docs/compatibility.md, "JSON numbers").
 */
final class JsonDouble {

    private JsonDouble() {
    }

    static String toText(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new MalformedDataException("JSON double " + d + " cannot be stored");
        }
        return Double.toString(d);
    }
}
