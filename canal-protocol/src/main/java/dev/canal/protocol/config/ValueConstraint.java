package dev.canal.protocol.config;

import java.util.List;
import java.util.Locale;

/**
 * What a key's value must be beyond its type, declared with the key ({@link ConfigKey#atLeast} and the like): the
 * typed reads of {@link TypedProperties} check it, and the configuration reference prints it.
 */
public sealed interface ValueConstraint {

    /** The allowed values in words, for the configuration reference. */
    String describe();

    /** @throws ConfigValueException naming the key when the value is not allowed */
    void check(String key, String value);

    /** An integer from {@code min} to {@code max}, both included. */
    record Range(long min, long max) implements ValueConstraint {

        @Override
        public String describe() {
            if (max == Long.MAX_VALUE) {
                return "at least " + min;
            }
            return min == Long.MIN_VALUE ? "at most " + max : min + " to " + max;
        }

        @Override
        public void check(String key, String value) {
            long number = parse(key, value);
            if (number < min || number > max) {
                throw ConfigValueException.invalid(key, value, "must be " + describe());
            }
        }
    }

    /** A positive power of two. */
    record PowerOfTwo() implements ValueConstraint {

        @Override
        public String describe() {
            return "a power of 2";
        }

        @Override
        public void check(String key, String value) {
            long number = parse(key, value);
            if (number <= 0 || Long.bitCount(number) != 1) {
                throw ConfigValueException.invalid(key, value, "must be " + describe());
            }
        }
    }

    /** One of a few words, compared ignoring case. */
    record OneOf(List<String> values) implements ValueConstraint {

        public OneOf {
            values = List.copyOf(values);
        }

        @Override
        public String describe() {
            return "one of " + String.join(", ", values);
        }

        @Override
        public void check(String key, String value) {
            String wanted = value.toLowerCase(Locale.ROOT);
            if (values.stream().noneMatch(v -> v.toLowerCase(Locale.ROOT).equals(wanted))) {
                throw ConfigValueException.invalid(key, value, "expected " + describe());
            }
        }
    }

    private static long parse(String key, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw ConfigValueException.invalid(key, value, "expected an integer");
        }
    }
}
