package dev.canal.parse.mysql;

import dev.canal.protocol.position.LogIdentity;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;

/**
 * Whether a stored position was read from the source configured now. As in Canal, two addresses are the same
 * source when their ports match and their host names match or resolve to a common address ({@code localhost}
 * and {@code 127.0.0.1} are one source).
 */
final class SourceAddress {

    private SourceAddress() {
    }

    /** A position without an identity (written by hand) is taken to be the configured source's. */
    static boolean same(LogIdentity stored, LogIdentity configured) {
        if (stored == null || stored.address() == null) {
            return true;
        }
        if (stored.port() != configured.port()) {
            return false;
        }
        if (stored.address().equalsIgnoreCase(configured.address())) {
            return true;
        }
        List<InetAddress> a = resolve(stored.address());
        List<InetAddress> b = resolve(configured.address());
        return a.stream().anyMatch(b::contains);
    }

    private static List<InetAddress> resolve(String host) {
        try {
            return Arrays.asList(InetAddress.getAllByName(host));
        } catch (UnknownHostException e) {
            return List.of(); // an unresolvable name matches only itself, compared above
        }
    }
}
