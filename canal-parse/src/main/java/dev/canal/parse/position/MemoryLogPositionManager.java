package dev.canal.parse.position;

import dev.canal.protocol.position.LogPosition;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Keeps positions in memory: a reconnect within the same process resumes where parsing stopped. */
public final class MemoryLogPositionManager implements LogPositionManager {

    private final Map<String, LogPosition> positions = new ConcurrentHashMap<>();

    @Override
    public LogPosition latest(String destination) {
        return positions.get(destination);
    }

    @Override
    public void persist(String destination, LogPosition position) {
        positions.put(destination, position);
    }
}
