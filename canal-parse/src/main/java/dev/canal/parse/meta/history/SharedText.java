package dev.canal.parse.meta.history;

import com.google.protobuf.ByteString;
import java.util.HashMap;
import java.util.Map;

/**
 * One instance of each name and type text of a schema model, with its UTF-8 bytes: a schema of thousands of tables
 * repeats a few hundred column names and types (sharded tables repeat them all), and each column would otherwise
 * hold its own copies of both. Grows with the distinct texts the model has seen; rebuilt with the model. Not
 * thread-safe.
 */
final class SharedText {

    /** A text and its UTF-8 encoding. */
    record Text(String text, ByteString utf8) {
    }

    private final Map<String, Text> texts = new HashMap<>();

    Text of(String text) {
        Text shared = texts.get(text);
        if (shared == null) {
            shared = new Text(text, ByteString.copyFromUtf8(text));
            texts.put(text, shared);
        }
        return shared;
    }
}
