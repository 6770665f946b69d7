package dev.canal.protocol;

/**
 * Text a client or another outside party chose (a user name, a refused destination name), made safe to put in a
 * log line or an error message: at most {@value #MAX_SHOWN} characters shown, control and other invisible
 * characters, the quote, and a backslash that a {@code u} follows written as a backslash, {@code u} and four hex
 * digits, so a name can neither forge log lines nor flood them, while a regular expression's {@code \.} stays
 * readable.
 */
public final class UntrustedText {

    public static final int MAX_SHOWN = 64;

    private UntrustedText() {
    }

    /** The text between single quotes, escaped and cut after {@value #MAX_SHOWN} characters; "null" for null. */
    public static String quote(String text) {
        if (text == null) {
            return "null";
        }
        String shown = escape(text.substring(0, Math.min(text.length(), MAX_SHOWN)), MAX_SHOWN);
        return '\'' + shown + '\'' + (text.length() > MAX_SHOWN ? "... (" + text.length() + " characters)" : "");
    }

    /** The text escaped and cut after {@code maxShown} characters, without quotes; "null" for null. */
    public static String escape(String text, int maxShown) {
        if (text == null) {
            return "null";
        }
        StringBuilder shown = new StringBuilder(Math.min(text.length(), maxShown) + 16);
        int end = Math.min(text.length(), maxShown);
        for (int i = 0; i < end; i++) {
            char c = text.charAt(i);
            boolean looksLikeEscape = c == '\\' && i + 1 < text.length() && text.charAt(i + 1) == 'u';
            if (isPlain(c) && !looksLikeEscape) {
                shown.append(c);
            } else {
                shown.append(String.format("\\u%04x", (int) c));
            }
        }
        if (text.length() > maxShown) {
            shown.append("... (").append(text.length()).append(" characters)");
        }
        return shown.toString();
    }

    private static boolean isPlain(char c) {
        if (c == '\'') {
            return false;
        }
        return switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                    Character.SURROGATE, Character.PRIVATE_USE, Character.UNASSIGNED -> false;
            default -> true;
        };
    }
}
