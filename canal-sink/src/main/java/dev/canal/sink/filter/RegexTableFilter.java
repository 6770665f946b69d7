package dev.canal.sink.filter;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A table name list in Canal's regex syntax, matched against
 * {@code schema.table}: comma-separated regexes (commas inside {}, [], () or escaped do not split),
 * empty items dropped, items not trimmed, longest first, each anchored, joined as alternatives and
 * matched in full, case-insensitively, against the lower-cased name.
 *
 * <p>An empty list, or an empty name, gives the list's "empty" answer: a white list matches
 * everything, a black list nothing.
 *
 * <p>Each table's answer is kept once found (up to {@value #MAX_CACHED_NAMES} names), so an expression that is
 * slow to match (a client's subscribe filter, say) costs once per table, not once per row event. Thread-safe.
 */
public final class RegexTableFilter {

    private static final Comparator<String> LONGEST_FIRST = Comparator.comparingInt(String::length).reversed();
    /** Names whose answer is kept; a schema of more tables than this matches the rest each time. */
    static final int MAX_CACHED_NAMES = 100_000;

    private final String source;
    private final List<String> items;
    private final Pattern pattern;
    private final boolean matchWhenEmpty;
    private final Map<String, Boolean> answers = new ConcurrentHashMap<>();

    private RegexTableFilter(String source, boolean matchWhenEmpty) {
        this.source = source == null ? "" : source;
        this.matchWhenEmpty = matchWhenEmpty;
        List<String> sorted = new ArrayList<>(splitItems(this.source));
        sorted.sort(LONGEST_FIRST);
        this.items = List.copyOf(sorted);
        // Canal runs Perl5 regexes with CASE_INSENSITIVE and SINGLELINE; DOTALL is Java's SINGLELINE
        this.pattern = items.isEmpty() ? null
                : Pattern.compile(items.stream().map(item -> "^" + item + "$").collect(Collectors.joining("|")),
                        Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    }

    /**
     * A white list: empty matches everything.
     *
     * @throws java.util.regex.PatternSyntaxException when an item is not a valid regex
     */
    public static RegexTableFilter whiteList(String patterns) {
        return new RegexTableFilter(patterns, true);
    }

    /**
     * A black list: empty matches nothing.
     *
     * @throws java.util.regex.PatternSyntaxException when an item is not a valid regex
     */
    public static RegexTableFilter blackList(String patterns) {
        return new RegexTableFilter(patterns, false);
    }

    /** Whether {@code schema.table} is on the list. */
    public boolean matches(String qualifiedName) {
        if (pattern == null || qualifiedName == null || qualifiedName.isEmpty()) {
            return matchWhenEmpty;
        }
        Boolean known = answers.get(qualifiedName);
        if (known != null) {
            return known;
        }
        boolean matches = pattern.matcher(qualifiedName.toLowerCase(Locale.ROOT)).matches();
        if (answers.size() < MAX_CACHED_NAMES) {
            answers.put(qualifiedName, matches);
        }
        return matches;
    }

    /** How many names have their answer kept. */
    int cachedNames() {
        return answers.size();
    }

    public boolean isEmpty() {
        return pattern == null;
    }

    /** The list as configured. */
    public String source() {
        return source;
    }

    /** The items after splitting and sorting, each still unanchored. */
    public List<String> items() {
        return items;
    }

    /** The single regex actually matched. */
    public String regex() {
        return pattern == null ? "" : pattern.pattern();
    }

    /**
     * Splits on commas that are not escaped, not inside a character class and not nested in {} or
     * (), so {@code \d{1,2}} stays one item (Canal HEAD; 1.1.8 split on every comma).
     */
    static List<String> splitItems(String patterns) {
        List<String> result = new ArrayList<>();
        StringBuilder item = new StringBuilder();
        int depth = 0;
        boolean inClass = false;
        for (int i = 0; i < patterns.length(); i++) {
            char c = patterns.charAt(i);
            if (c == '\\' && i + 1 < patterns.length()) {
                item.append(c).append(patterns.charAt(++i));
                continue;
            }
            if (inClass) {
                inClass = c != ']';
            } else if (c == '[') {
                inClass = true;
            } else if (c == '{' || c == '(') {
                depth++;
            } else if ((c == '}' || c == ')') && depth > 0) {
                depth--;
            } else if (c == ',' && depth == 0) {
                addItem(result, item);
                continue;
            }
            item.append(c);
        }
        addItem(result, item);
        return result;
    }

    private static void addItem(List<String> result, StringBuilder item) {
        if (!item.isEmpty()) {
            result.add(item.toString());
        }
        item.setLength(0);
    }

    @Override
    public String toString() {
        return "RegexTableFilter[" + source + "]";
    }
}
