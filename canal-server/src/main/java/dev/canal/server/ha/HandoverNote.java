package dev.canal.server.ha;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The content of {@code /otter/canal/destinations/{dest}/handover} (ours; Canal neither writes nor reads it): a
 * server that gives a destination up on purpose (a stop, a release) writes it, after its instance stopped and pushed
 * its cursors and before it deletes its running node, so that a standby takes over at once instead of waiting the
 * takeover delay meant for crashed servers. It names the running node given up by the zxid that created it, so a
 * note left over from an earlier handover is never taken for a later node's. Written as
 * {@code {"from":"ip:port","node":123}}, with {@code "to":"ip:port"} when the balancing hands the destination to one
 * server (only that one competes at once; the others wait their takeover delay).
 *
 * @param runningNode the creation zxid of the running node given up
 * @param from        the address of the server that gave it up
 * @param to          the server invited to take over, null for any
 */
record HandoverNote(long runningNode, String from, String to) {

    /** ZooKeeper data is not trusted: anything longer is no note of ours. */
    static final int MAX_BYTES = 1024;

    private static final Pattern FROM = Pattern.compile("\"from\"\\s*:\\s*\"([^\"\\\\]{1,300})\"");
    private static final Pattern TO = Pattern.compile("\"to\"\\s*:\\s*\"([^\"\\\\]{1,300})\"");
    private static final Pattern NODE = Pattern.compile("\"node\"\\s*:\\s*(\\d{1,19})");

    HandoverNote {
        Objects.requireNonNull(from, "from");
    }

    /** A note inviting any server. */
    HandoverNote(long runningNode, String from) {
        this(runningNode, from, null);
    }

    /**
     * Whether a server at {@code address} that last saw the running node {@code seenNode} should take over now: the
     * note is about that node, this server is not the one that gave it up, and the note names no other server.
     */
    boolean invites(String address, long seenNode) {
        return runningNode == seenNode && seenNode != 0 && !from.equals(address) && (to == null || to.equals(address));
    }

    byte[] toJson() {
        String target = to == null ? "" : ",\"to\":\"" + to + "\"";
        return ("{\"from\":\"" + from + "\"" + target + ",\"node\":" + runningNode + "}")
                .getBytes(StandardCharsets.UTF_8);
    }

    /** The note, or empty when the data is not one (too long, or a field missing or malformed). */
    static Optional<HandoverNote> fromJson(byte[] json) {
        if (json == null || json.length > MAX_BYTES) {
            return Optional.empty();
        }
        String text = new String(json, StandardCharsets.UTF_8);
        Matcher from = FROM.matcher(text);
        Matcher node = NODE.matcher(text);
        if (!from.find() || !node.find()) {
            return Optional.empty();
        }
        Matcher to = TO.matcher(text);
        try {
            return Optional.of(new HandoverNote(Long.parseLong(node.group(1)), from.group(1),
                    to.find() ? to.group(1) : null));
        } catch (NumberFormatException tooLarge) {
            return Optional.empty();
        }
    }
}
