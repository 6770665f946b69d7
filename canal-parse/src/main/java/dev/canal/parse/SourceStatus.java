package dev.canal.parse;

import dev.canal.parse.mysql.SourceFailure;

/**
 * Where a parser stands with its source, as the start-up report prints it: still connecting, streaming from a
 * position, or failing (docs/operations.md).
 *
 * @param state   connecting, streaming or failing
 * @param source  the source's {@code host:port}
 * @param detail  the position streamed from, or the failure's reason and, for a lasting one, its remedy
 */
public record SourceStatus(State state, String source, String detail) {

    public enum State { CONNECTING, STREAMING, FAILING }

    public static SourceStatus connecting(String source) {
        return new SourceStatus(State.CONNECTING, source, "");
    }

    public static SourceStatus streaming(String source, String position) {
        return new SourceStatus(State.STREAMING, source, position);
    }

    public static SourceStatus failing(String source, SourceFailure failure) {
        return new SourceStatus(State.FAILING, source,
                failure.reason() + (failure.permanent() ? "; " + failure.remedy() : "; retrying"));
    }

    /** One line: "streaming from host:port at position", "cannot read host:port: reason; remedy", ... */
    public String describe() {
        return switch (state) {
            case CONNECTING -> "still connecting to " + source;
            case STREAMING -> "streaming from " + source + " at " + detail;
            case FAILING -> "cannot read " + source + ": " + detail;
        };
    }
}
