package dev.canal.protocol;

import java.util.Objects;

/**
 * A consumer of one destination: (destination, clientId). The filter travels with the identity but,
 * as in Canal, is not part of its equality: re-subscribing with another filter is the same client.
 */
public record ClientIdentity(String destination, short clientId, String filter) {

    public ClientIdentity {
        Objects.requireNonNull(destination, "destination");
        filter = filter == null ? "" : filter;
    }

    public ClientIdentity(String destination, short clientId) {
        this(destination, clientId, "");
    }

    public boolean hasFilter() {
        return !filter.isBlank();
    }

    public ClientIdentity withFilter(String newFilter) {
        return new ClientIdentity(destination, clientId, newFilter);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClientIdentity other
                && clientId == other.clientId
                && destination.equals(other.destination);
    }

    @Override
    public int hashCode() {
        return 31 * destination.hashCode() + clientId;
    }

    @Override
    public String toString() {
        return "ClientIdentity[destination=" + destination + ", clientId=" + clientId + ", filter=" + filter + "]";
    }
}
