package dev.canal.binlog.net;

import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The server's initial handshake (protocol version 10).
 *
 * @param scramble the 20-byte nonce (both parts of auth-plugin-data, without the trailing NUL)
 * @param authPluginName the server's default plugin, or {@code mysql_native_password} when it names none
 */
record Handshake(String serverVersion, long connectionId, int capabilities, int characterSet, int statusFlags,
        byte[] scramble, String authPluginName) {

    static final int PROTOCOL_VERSION = 10;
    private static final int SCRAMBLE_PART1_LENGTH = 8;
    private static final int MIN_SCRAMBLE_PART2_LENGTH = 13;
    private static final int RESERVED_LENGTH = 10;

    static Handshake parse(byte[] packet) {
        LittleEndianCursor in = new LittleEndianCursor(packet);
        int protocol = in.uint8();
        if (protocol != PROTOCOL_VERSION) {
            throw new MalformedDataException("unsupported handshake protocol version " + protocol);
        }
        String version = in.nullTerminatedString();
        long connectionId = in.uint32();
        byte[] part1 = in.bytes(SCRAMBLE_PART1_LENGTH);
        in.skip(1);
        int capabilities = in.uint16();
        int charset = 0;
        int status = 0;
        int authDataLength = 0;
        if (in.hasRemaining()) {
            charset = in.uint8();
            status = in.uint16();
            capabilities |= in.uint16() << 16;
            authDataLength = in.uint8();
            in.skip(RESERVED_LENGTH); // MariaDB keeps its extended capabilities in the last 4; we need none
        }
        byte[] scramble = part1;
        if ((capabilities & CapabilityFlags.SECURE_CONNECTION) != 0 && in.hasRemaining()) {
            int part2Length = Math.min(in.remaining(),
                    Math.max(MIN_SCRAMBLE_PART2_LENGTH, authDataLength - SCRAMBLE_PART1_LENGTH));
            byte[] part2 = in.bytes(part2Length);
            int used = part2Length > 0 && part2[part2Length - 1] == 0 ? part2Length - 1 : part2Length;
            scramble = Arrays.copyOf(part1, SCRAMBLE_PART1_LENGTH + used);
            System.arraycopy(part2, 0, scramble, SCRAMBLE_PART1_LENGTH, used);
        }
        String plugin = AuthPlugins.NATIVE_PASSWORD;
        if ((capabilities & CapabilityFlags.PLUGIN_AUTH) != 0 && in.hasRemaining()) {
            plugin = pluginName(in);
        }
        return new Handshake(version, connectionId, capabilities, charset, status, scramble, plugin);
    }

    /** NUL-terminated, but some old servers end the packet without the NUL. */
    static String pluginName(LittleEndianCursor in) {
        int start = in.position();
        int end = start;
        byte[] a = in.array();
        while (end < in.limit() && a[end] != 0) {
            end++;
        }
        String name = new String(a, start, end - start, StandardCharsets.US_ASCII);
        in.position(Math.min(end + 1, in.limit()));
        return name;
    }

    boolean has(int capability) {
        return (capabilities & capability) != 0;
    }
}
