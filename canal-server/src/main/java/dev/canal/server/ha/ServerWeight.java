package dev.canal.server.ha;

import java.nio.charset.StandardCharsets;

/**
 * A server's placement weight as the data of its {@code /otter/canal/cluster/{ip:port}} node: the weight in
 * decimal digits. Canal leaves that node empty; an empty or unreadable node counts as weight 1, so a server that
 * does not publish a weight is an ordinary one (docs/high-availability.md, "Spreading destinations over servers").
 */
final class ServerWeight {

    static final int DEFAULT = 1;

    private ServerWeight() {
    }

    static byte[] encode(int weight) {
        return Integer.toString(weight).getBytes(StandardCharsets.US_ASCII);
    }

    static int decode(byte[] data) {
        if (data == null || data.length == 0 || data.length > 4) {
            return DEFAULT;
        }
        int weight = 0;
        for (byte b : data) {
            if (b < '0' || b > '9') {
                return DEFAULT;
            }
            weight = weight * 10 + (b - '0');
        }
        return weight >= 1 && weight <= PlacementConfig.MAX_WEIGHT ? weight : DEFAULT;
    }
}
