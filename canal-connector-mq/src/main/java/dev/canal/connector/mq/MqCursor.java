package dev.canal.connector.mq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.canal.meta.MetaJson;
import dev.canal.meta.MetaManagerException;
import dev.canal.protocol.position.LogPosition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * A destination's progress as committed with its messages in one broker transaction (docs/mq.md, exactly once): the
 * parser restarts after {@code position}, the last transaction boundary delivered, and the first {@code skip}
 * entries it produces from there were delivered already. {@code token} names the commit, so that a server that
 * lost track of a commit's outcome can tell its own commit from another server's.
 *
 * @param position the ack point the cursor stands on; null while no boundary was ever delivered
 * @param skip     entries delivered after {@code position}, inside a transaction too large to wait for its end
 * @param token    unique per commit
 */
public record MqCursor(LogPosition position, long skip, String token) {

    /** A cursor record is small; anything larger is not one of ours. */
    public static final int MAX_BYTES = 16 * 1024;
    private static final Pattern TOKEN = Pattern.compile("[0-9a-zA-Z-]{1,64}");
    private static final ObjectMapper JSON = new ObjectMapper();

    public MqCursor {
        Objects.requireNonNull(token, "token");
        if (skip < 0) {
            throw new IllegalArgumentException("skip must not be negative: " + skip);
        }
        if (!TOKEN.matcher(token).matches()) {
            throw new IllegalArgumentException("not a cursor token: " + token);
        }
    }

    /** The same place under a new token, for a new commit. */
    public MqCursor renewed() {
        return at(position, skip);
    }

    /** A cursor at {@code position} after {@code skip} entries, with a fresh token. */
    public static MqCursor at(LogPosition position, long skip) {
        return new MqCursor(position, skip, UUID.randomUUID().toString());
    }

    public byte[] toBytes() {
        String json = "{\"token\":\"" + token + "\",\"skip\":" + skip + ",\"position\":"
                + (position == null ? "null" : MetaJson.toJson(position)) + "}";
        return json.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Reads a cursor record.
     *
     * @param where names the record (topic, partition, offset) in the error
     * @throws IllegalArgumentException naming {@code where} when the bytes are not a cursor
     */
    public static MqCursor parse(byte[] bytes, String where) {
        if (bytes.length > MAX_BYTES) {
            throw new IllegalArgumentException(where + ": a cursor record of " + bytes.length + " bytes, more than "
                    + MAX_BYTES);
        }
        JsonNode node;
        try {
            node = JSON.readTree(bytes);
        } catch (IOException e) {
            throw new IllegalArgumentException(where + ": not a cursor record: " + e.getMessage(), e);
        }
        if (node == null || !node.isObject() || !node.path("token").isTextual()
                || !node.path("skip").canConvertToLong()) {
            throw new IllegalArgumentException(where + ": not a cursor record (token, skip, position)");
        }
        try {
            JsonNode position = node.path("position");
            return new MqCursor(position.isObject() ? MetaJson.readLogPosition(position.toString()) : null,
                    node.get("skip").asLong(), node.get("token").asText());
        } catch (MetaManagerException | IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": not a cursor record: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return (position == null ? "no position" : MetaJson.toJson(position))
                + (skip > 0 ? " + " + skip + " entries" : "");
    }
}
