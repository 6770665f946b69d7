package dev.canal.connector.mq;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * Each key's versions as received from a broker, collected from flat messages whose rows carry the key in
 * {@code id} and the version in {@code name}.
 */
public final class KeyVersions {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<Integer, List<Integer>> byKey = new TreeMap<>();

    /** Adds the rows of one flat message; returns the keys it held, in order. */
    public List<Integer> add(byte[] flatMessage) throws IOException {
        List<Integer> keys = new ArrayList<>();
        for (JsonNode row : JSON.readTree(flatMessage).get("data")) {
            int key = row.get("id").asInt();
            byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(row.get("name").asInt());
            keys.add(key);
        }
        return keys;
    }

    public Map<Integer, List<Integer>> byKey() {
        return byKey;
    }

    /**
     * Every key 0 .. versions.length - 1 was received, each with all its versions 1 .. versions[key] first seen in
     * order (a re-sent message may repeat earlier ones), ending at its last version.
     */
    public static void assertEveryVersionInOrder(Map<Integer, List<Integer>> versionsByKey, int[] versions) {
        assertThat(versionsByKey).hasSize(versions.length);
        for (int key = 0; key < versions.length; key++) {
            List<Integer> seen = versionsByKey.get(key);
            List<Integer> firstSeen = List.copyOf(new LinkedHashSet<>(seen));
            List<Integer> all = IntStream.rangeClosed(1, versions[key]).boxed().toList();
            assertThat(firstSeen).as("key %d: every version, first seen in order", key).containsExactlyElementsOf(all);
            assertThat(seen.get(seen.size() - 1)).as("key %d ends at its last version", key).isEqualTo(versions[key]);
        }
    }
}
