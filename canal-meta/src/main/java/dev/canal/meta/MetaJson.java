package dev.canal.meta;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.position.EntryPosition;
import dev.canal.protocol.position.LogIdentity;
import dev.canal.protocol.position.LogPosition;
import dev.canal.protocol.position.PositionRange;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The one place that maps positions and meta files to Canal's JSON: keys in
 * alphabetical order, nulls omitted, the key {@code postion} spelled as Canal spells it, and, for the
 * ZooKeeper flavour, {@code "@type"} first naming Canal's class. Readers accept JSON with or without
 * {@code "@type"}, in any key order, from fastjson 1 or 2, and reject anything else with the reason.
 */
public final class MetaJson {

    static final String LOG_POSITION_TYPE = "com.alibaba.otter.canal.protocol.position.LogPosition";
    static final String POSITION_RANGE_TYPE = "com.alibaba.otter.canal.protocol.position.PositionRange";
    private static final String TYPE_KEY = "@type";

    private static final JsonFactory FACTORY = new JsonFactory();
    private static final ObjectMapper READER = new ObjectMapper(FACTORY)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private MetaJson() {
    }

    /** A cursor as {@code meta.dat} and the {@code parse} node hold it: no {@code "@type"}. */
    public static String toJson(LogPosition position) {
        return write(g -> writeLogPosition(g, position, false));
    }

    /** A cursor as ZooKeeperMetaManager writes its {@code cursor} node: {@code "@type"} first. */
    public static String toTypedJson(LogPosition position) {
        return write(g -> writeLogPosition(g, position, true));
    }

    public static String toJson(PositionRange range) {
        return write(g -> writePositionRange(g, range, false));
    }

    /** A batch mark as ZooKeeper {@code mark} nodes hold it: {@code "@type"} on the range and each position. */
    public static String toTypedJson(PositionRange range) {
        return write(g -> writePositionRange(g, range, true));
    }

    public static String toJson(DestinationMeta meta) {
        return write(g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("clientDatas");
            for (DestinationMeta.ClientData data : meta.clientDatas()) {
                g.writeStartObject();
                g.writeFieldName("clientIdentity");
                writeClientIdentity(g, data.clientIdentity());
                if (data.cursor() != null) {
                    g.writeFieldName("cursor");
                    writeLogPosition(g, data.cursor(), false);
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeStringField("destination", meta.destination());
            g.writeEndObject();
        });
    }

    /** @throws MetaManagerException naming what is wrong */
    public static LogPosition readLogPosition(String json) {
        return readLogPosition(parse(json, "LogPosition"), "LogPosition");
    }

    /** @throws MetaManagerException naming what is wrong */
    public static PositionRange readPositionRange(String json) {
        JsonNode node = parse(json, "PositionRange");
        checkType(node, POSITION_RANGE_TYPE, "PositionRange");
        return new PositionRange(
                optionalLogPosition(node, "start"),
                optionalLogPosition(node, "end"),
                optionalLogPosition(node, "ack"),
                longOrDefault(node, "endSeq", 0L, "PositionRange"));
    }

    /** @throws MetaManagerException naming what is wrong */
    public static DestinationMeta readDestinationMeta(String json) {
        JsonNode node = parse(json, "meta file");
        String destination = requiredText(node, "destination", "meta file");
        JsonNode datas = node.get("clientDatas");
        List<DestinationMeta.ClientData> clients = new ArrayList<>();
        if (datas != null && !datas.isNull()) {
            if (!datas.isArray()) {
                throw new MetaManagerException("meta file: clientDatas is not an array: " + datas);
            }
            for (JsonNode data : datas) {
                clients.add(new DestinationMeta.ClientData(
                        readClientIdentity(requiredObject(data, "clientIdentity", "clientDatas item")),
                        optionalLogPosition(data, "cursor")));
            }
        }
        return new DestinationMeta(destination, clients);
    }

    // ---- writing

    private interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private static String write(Body body) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            body.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to memory", e);
        }
        return out.toString();
    }

    private static void writeClientIdentity(JsonGenerator g, ClientIdentity client) throws IOException {
        g.writeStartObject();
        g.writeNumberField("clientId", client.clientId());
        g.writeStringField("destination", client.destination());
        g.writeStringField("filter", client.filter());
        g.writeEndObject();
    }

    private static void writePositionRange(JsonGenerator g, PositionRange range, boolean typed) throws IOException {
        g.writeStartObject();
        if (typed) {
            g.writeStringField(TYPE_KEY, POSITION_RANGE_TYPE);
        }
        // Canal's PositionRange fields are generic (erased to Position), so fastjson's WriteClassName
        // tags each position too.
        writeOptionalLogPosition(g, "ack", range.ack(), typed);
        writeOptionalLogPosition(g, "end", range.end(), typed);
        g.writeNumberField("endSeq", range.endSeq());
        writeOptionalLogPosition(g, "start", range.start(), typed);
        g.writeEndObject();
    }

    private static void writeOptionalLogPosition(JsonGenerator g, String key, LogPosition position, boolean typed)
            throws IOException {
        if (position != null) {
            g.writeFieldName(key);
            writeLogPosition(g, position, typed);
        }
    }

    private static void writeLogPosition(JsonGenerator g, LogPosition position, boolean typed) throws IOException {
        g.writeStartObject();
        if (typed) {
            g.writeStringField(TYPE_KEY, LOG_POSITION_TYPE);
        }
        if (position.identity() != null) {
            LogIdentity identity = position.identity();
            g.writeObjectFieldStart("identity");
            g.writeNumberField("slaveId", identity.slaveId());
            g.writeObjectFieldStart("sourceAddress");
            if (identity.address() != null) {
                g.writeStringField("address", identity.address());
            }
            g.writeNumberField("port", identity.port());
            g.writeEndObject();
            g.writeEndObject();
        }
        if (position.position() != null) {
            EntryPosition entry = position.position();
            g.writeObjectFieldStart("postion"); // sic: Canal's field name
            writeOptionalString(g, "gtid", entry.gtid());
            g.writeBooleanField("included", entry.included());
            writeOptionalString(g, "journalName", entry.journalName());
            writeOptionalNumber(g, "position", entry.position());
            writeOptionalNumber(g, "serverId", entry.serverId());
            writeOptionalNumber(g, "timestamp", entry.timestamp());
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    private static void writeOptionalString(JsonGenerator g, String key, String value) throws IOException {
        if (value != null) {
            g.writeStringField(key, value);
        }
    }

    private static void writeOptionalNumber(JsonGenerator g, String key, Long value) throws IOException {
        if (value != null) {
            g.writeNumberField(key, value);
        }
    }

    // ---- reading

    private static JsonNode parse(String json, String what) {
        if (json == null || json.isBlank()) {
            throw new MetaManagerException(what + " JSON is empty");
        }
        JsonNode node;
        try {
            node = READER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new MetaManagerException(what + " JSON is malformed: " + e.getOriginalMessage(), e);
        }
        if (node == null || !node.isObject()) {
            throw new MetaManagerException(what + " JSON is not an object: " + abbreviate(json));
        }
        return node;
    }

    private static LogPosition readLogPosition(JsonNode node, String what) {
        checkType(node, LOG_POSITION_TYPE, what);
        LogIdentity identity = null;
        JsonNode identityNode = optionalObject(node, "identity", what);
        if (identityNode != null) {
            JsonNode address = optionalObject(identityNode, "sourceAddress", what + ".identity");
            String where = what + ".identity.sourceAddress";
            identity = new LogIdentity(
                    address == null ? null : optionalText(address, "address", where),
                    address == null ? 0 : (int) longOrDefault(address, "port", 0L, where),
                    longOrDefault(identityNode, "slaveId", LogIdentity.UNKNOWN_SLAVE_ID, what + ".identity"));
        }
        EntryPosition entry = null;
        JsonNode entryNode = optionalObject(node, "postion", what);
        if (entryNode != null) {
            String where = what + ".postion";
            entry = new EntryPosition(
                    optionalText(entryNode, "journalName", where),
                    optionalLong(entryNode, "position", where),
                    optionalLong(entryNode, "serverId", where),
                    optionalLong(entryNode, "timestamp", where),
                    optionalText(entryNode, "gtid", where),
                    optionalBoolean(entryNode, "included", where));
        }
        return new LogPosition(identity, entry);
    }

    private static LogPosition optionalLogPosition(JsonNode parent, String key) {
        JsonNode node = optionalObject(parent, key, key);
        return node == null ? null : readLogPosition(node, key);
    }

    private static ClientIdentity readClientIdentity(JsonNode node) {
        long clientId = requiredLong(node, "clientId", "clientIdentity");
        if (clientId < Short.MIN_VALUE || clientId > Short.MAX_VALUE) {
            throw new MetaManagerException("clientIdentity.clientId out of range: " + clientId);
        }
        return new ClientIdentity(requiredText(node, "destination", "clientIdentity"), (short) clientId,
                optionalText(node, "filter", "clientIdentity"));
    }

    private static void checkType(JsonNode node, String expected, String what) {
        JsonNode type = node.get(TYPE_KEY);
        if (type != null && !expected.equals(type.asText())) {
            throw new MetaManagerException(what + " JSON has @type " + type + ", expected " + expected);
        }
    }

    private static JsonNode optionalObject(JsonNode parent, String key, String what) {
        JsonNode node = parent.get(key);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw new MetaManagerException(what + "." + key + " is not an object: " + node);
        }
        return node;
    }

    private static JsonNode requiredObject(JsonNode parent, String key, String what) {
        JsonNode node = optionalObject(parent, key, what);
        if (node == null) {
            throw new MetaManagerException(what + " has no " + key);
        }
        return node;
    }

    private static String optionalText(JsonNode parent, String key, String what) {
        JsonNode node = parent.get(key);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw new MetaManagerException(what + "." + key + " is not a string: " + node);
        }
        return node.textValue();
    }

    private static String requiredText(JsonNode parent, String key, String what) {
        String text = optionalText(parent, key, what);
        if (text == null) {
            throw new MetaManagerException(what + " has no " + key);
        }
        return text;
    }

    private static Long optionalLong(JsonNode parent, String key, String what) {
        JsonNode node = parent.get(key);
        if (node == null || node.isNull()) {
            return null;
        }
        if (node.isIntegralNumber() && node.canConvertToLong()) {
            return node.longValue();
        }
        if (node.isTextual()) { // lenient like fastjson: "1234"
            try {
                return Long.parseLong(node.textValue().trim());
            } catch (NumberFormatException e) {
                throw new MetaManagerException(what + "." + key + " is not an integer: " + node, e);
            }
        }
        throw new MetaManagerException(what + "." + key + " is not an integer: " + node);
    }

    private static long longOrDefault(JsonNode parent, String key, long defaultValue, String what) {
        Long value = optionalLong(parent, key, what);
        return value == null ? defaultValue : value;
    }

    private static long requiredLong(JsonNode parent, String key, String what) {
        Long value = optionalLong(parent, key, what);
        if (value == null) {
            throw new MetaManagerException(what + " has no " + key);
        }
        return value;
    }

    private static boolean optionalBoolean(JsonNode parent, String key, String what) {
        JsonNode node = parent.get(key);
        if (node == null || node.isNull()) {
            return false;
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isTextual() && ("true".equals(node.textValue()) || "false".equals(node.textValue()))) {
            return Boolean.parseBoolean(node.textValue());
        }
        throw new MetaManagerException(what + "." + key + " is not a boolean: " + node);
    }

    private static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "...";
    }
}
