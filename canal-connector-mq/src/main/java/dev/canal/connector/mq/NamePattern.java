package dev.canal.connector.mq;

import dev.canal.protocol.config.ConfigValueException;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * One name item of {@code partitionHash}, {@code dynamicTopic} or {@code dynamicTopicPartitionNum}: a plain
 * name compared case-insensitively, or, when it contains a regex character, a regex matched in full,
 * case-insensitively, against the lower-cased name.
 */
public sealed interface NamePattern {

    /** The characters whose presence makes an item a regex (docs/mq.md). */
    String REGEX_CHARACTERS = "*?+(){}[]\\$^|";

    boolean matches(String name);

    /** Parses one item; {@code key} names the setting in the error of a malformed regex. */
    static NamePattern of(String key, String text) {
        if (text.isEmpty()) {
            throw ConfigValueException.missing(key, "an item has an empty name");
        }
        for (char c : text.toCharArray()) {
            if (REGEX_CHARACTERS.indexOf(c) >= 0) {
                try {
                    return new Regex(Pattern.compile("^" + text + "$", Pattern.CASE_INSENSITIVE | Pattern.DOTALL));
                } catch (PatternSyntaxException e) {
                    throw ConfigValueException.invalid(key, text, "invalid regex: " + e.getDescription(), e);
                }
            }
        }
        return new Exact(text);
    }

    /** A plain name. */
    record Exact(String name) implements NamePattern {
        @Override
        public boolean matches(String candidate) {
            return name.equalsIgnoreCase(candidate);
        }
    }

    /** A regex item, anchored at both ends. */
    record Regex(Pattern pattern) implements NamePattern {
        @Override
        public boolean matches(String candidate) {
            return pattern.matcher(candidate.toLowerCase(Locale.ROOT)).matches();
        }

        /** Whether the regex names a table ({@code schema\.table}) rather than a schema. */
        public boolean namesTable() {
            return pattern.pattern().contains("\\.");
        }
    }
}
