package dev.canal.server.ha;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The content of {@code /otter/canal/destinations/{dest}/running}: which server holds the destination
 * (Canal's ServerRunningData). Written as {@code {"active":true,"address":"ip:port"}},
 * keys in fastjson's alphabetical order and without {@code "@type"}, so Canal servers and the official
 * client's ClusterNodeAccessStrategy read it.
 *
 * @param active  false asks the holder to release (Canal's convention); true otherwise
 * @param address the holder's {@code registerIp:port}
 */
public record ServerRunningData(boolean active, String address) {

    private static final Pattern ACTIVE = Pattern.compile("\"active\"\\s*:\\s*(true|false)");
    private static final Pattern ADDRESS = Pattern.compile("\"address\"\\s*:\\s*\"([^\"]*)\"");

    public ServerRunningData {
        Objects.requireNonNull(address, "address");
    }

    public static ServerRunningData activeAt(String address) {
        return new ServerRunningData(true, address);
    }

    public byte[] toJson() {
        return ("{\"active\":" + active + ",\"address\":\"" + address + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Reads the node as Canal writes it; {@code active} defaults to true when absent, as in Canal.
     *
     * @throws IllegalArgumentException quoting the text when it has no address
     */
    public static ServerRunningData fromJson(byte[] json) {
        String text = new String(json, StandardCharsets.UTF_8);
        Matcher address = ADDRESS.matcher(text);
        if (!address.find()) {
            throw new IllegalArgumentException("not a ServerRunningData JSON (no address): " + text);
        }
        Matcher active = ACTIVE.matcher(text);
        return new ServerRunningData(!active.find() || Boolean.parseBoolean(active.group(1)), address.group(1));
    }
}
