package dev.canal.binlog.net;

import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The login exchange after the handshake: HandshakeResponse41, then AuthSwitchRequest (0xFE) and AuthMoreData
 * (0x01) rounds until OK or an error. One use per connection.
 */
final class Authenticator {

    private static final int OK = 0x00;
    private static final int MORE_DATA = 0x01;
    private static final int AUTH_SWITCH = 0xFE;
    private static final int ERROR = 0xFF;
    /** AuthMoreData payloads of caching_sha2_password. */
    private static final int SHA2_FAST_AUTH_OK = 0x03;
    private static final int SHA2_FULL_AUTH_NEEDED = 0x04;
    /** Client requests for the server's RSA public key. */
    private static final byte SHA2_REQUEST_PUBLIC_KEY = 0x02;
    private static final byte SHA256_REQUEST_PUBLIC_KEY = 0x01;
    private static final int MAX_PACKET_SIZE = 16 * 1024 * 1024;
    /** utf8mb4_general_ci, known to MySQL 5.5.3+ and every MariaDB. */
    static final int UTF8MB4_GENERAL_CI = 45;
    private static final int FILLER_LENGTH = 23;

    private final PacketChannel channel;
    private final ConnectionOptions options;
    private final boolean secure;
    private String plugin;
    private byte[] scramble;
    private AuthMethod method;

    Authenticator(PacketChannel channel, ConnectionOptions options, boolean secure) {
        this.channel = channel;
        this.options = options;
        this.secure = secure;
    }

    /** The first 32 bytes of a handshake response, which alone form the SSLRequest. */
    static byte[] sslRequest(int capabilities) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writeFixedPart(out, capabilities | CapabilityFlags.SSL);
        return out.toByteArray();
    }

    /** @throws PublicKeyRetrievalException when the server needs the RSA key exchange and it is not allowed */
    AuthMethod authenticate(Handshake handshake, int capabilities) throws IOException {
        scramble = handshake.scramble();
        // an unknown default plugin: answer with the native scramble and let the server switch us to the user's plugin
        plugin = AuthPlugins.isSupported(handshake.authPluginName()) ? handshake.authPluginName()
                : AuthPlugins.NATIVE_PASSWORD;
        channel.writePacket(handshakeResponse(capabilities, initialResponse()));
        while (true) {
            byte[] packet = channel.readPacket();
            if (packet.length == 0) {
                throw new MalformedDataException("empty packet during login to " + channel.peer());
            }
            switch (packet[0] & 0xFF) {
                case OK -> {
                    return method;
                }
                case ERROR -> throw MysqlServerException.fromPacket(packet, "login as '" + options.user() + "' to "
                        + channel.peer() + " with " + plugin);
                case AUTH_SWITCH -> switchPlugin(packet);
                case MORE_DATA -> moreData(Arrays.copyOfRange(packet, 1, packet.length));
                default -> throw new MalformedDataException("unexpected packet 0x"
                        + Integer.toHexString(packet[0] & 0xFF) + " during login to " + channel.peer());
            }
        }
    }

    private byte[] initialResponse() throws PublicKeyRetrievalException {
        String password = options.password();
        if (password.isEmpty()) {
            method = AuthMethod.EMPTY_PASSWORD;
            // sha256_password marks an empty password with a single NUL; the others send nothing
            return AuthPlugins.SHA256_PASSWORD.equals(plugin) ? new byte[] {0} : new byte[0];
        }
        return switch (plugin) {
            case AuthPlugins.NATIVE_PASSWORD -> {
                method = AuthMethod.NATIVE_PASSWORD;
                yield AuthPlugins.nativePassword(password, scramble);
            }
            case AuthPlugins.CACHING_SHA2_PASSWORD -> {
                method = AuthMethod.CACHING_SHA2_FAST;
                yield AuthPlugins.cachingSha2(password, scramble);
            }
            case AuthPlugins.SHA256_PASSWORD -> {
                method = secure ? AuthMethod.SHA256_TLS : AuthMethod.SHA256_RSA;
                yield secure ? AuthPlugins.cleartext(password) : publicKeyRequest(SHA256_REQUEST_PUBLIC_KEY);
            }
            default -> throw new IllegalStateException("no scramble for plugin " + plugin);
        };
    }

    private void switchPlugin(byte[] packet) throws IOException {
        LittleEndianCursor in = new LittleEndianCursor(packet);
        in.skip(1);
        String requested = Handshake.pluginName(in);
        if (!AuthPlugins.isSupported(requested)) {
            throw new IOException("server " + channel.peer() + " asks for authentication plugin '" + requested
                    + "' for user '" + options.user() + "', which this client does not support");
        }
        byte[] data = in.remainingBytes();
        // the new nonce is NUL-terminated on the wire
        scramble = data.length > 0 && data[data.length - 1] == 0 ? Arrays.copyOf(data, data.length - 1) : data;
        plugin = requested;
        channel.writePacket(initialResponse());
    }

    private void moreData(byte[] data) throws IOException {
        boolean sha2 = AuthPlugins.CACHING_SHA2_PASSWORD.equals(plugin);
        if (sha2 && data.length == 1 && data[0] == SHA2_FAST_AUTH_OK) {
            method = AuthMethod.CACHING_SHA2_FAST;
            return; // OK follows
        }
        if (sha2 && data.length == 1 && data[0] == SHA2_FULL_AUTH_NEEDED) {
            method = secure ? AuthMethod.CACHING_SHA2_FULL_TLS : AuthMethod.CACHING_SHA2_FULL_RSA;
            channel.writePacket(secure ? AuthPlugins.cleartext(options.password())
                    : publicKeyRequest(SHA2_REQUEST_PUBLIC_KEY));
            return;
        }
        String text = new String(data, StandardCharsets.US_ASCII);
        if (text.startsWith("-----BEGIN PUBLIC KEY-----")) {
            requirePublicKeyRetrievalAllowed(); // a key the server sends unasked is no safer than one asked for
            channel.writePacket(AuthPlugins.rsaEncryptedPassword(options.password(), scramble, text));
            return;
        }
        throw new MalformedDataException("unexpected AuthMoreData (" + data.length + " bytes) from " + channel.peer()
                + " during " + plugin + " login");
    }

    /**
     * The request for the server's RSA public key, which a connection without TLS may make only when allowed: the
     * key comes over the same unprotected connection, so whoever sits in between could send their own.
     *
     * @throws PublicKeyRetrievalException when not allowed
     */
    private byte[] publicKeyRequest(byte request) throws PublicKeyRetrievalException {
        requirePublicKeyRetrievalAllowed();
        return new byte[] {request};
    }

    private void requirePublicKeyRetrievalAllowed() throws PublicKeyRetrievalException {
        if (!options.ssl().allowPublicKeyRetrieval()) {
            throw new PublicKeyRetrievalException("server " + channel.peer() + " needs the password of '"
                    + options.user() + "' (" + plugin + ") sent with its RSA public key, over a connection without "
                    + "TLS; use TLS (sslMode REQUIRED or above), or allow the key to be fetched from the server "
                    + "(allowPublicKeyRetrieval)");
        }
    }

    private byte[] handshakeResponse(int capabilities, byte[] authResponse) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writeFixedPart(out, capabilities);
        writeNulTerminated(out, options.user());
        if ((capabilities & CapabilityFlags.PLUGIN_AUTH_LENENC_CLIENT_DATA) != 0) {
            writeLengthEncoded(out, authResponse.length);
        } else {
            out.write(authResponse.length);
        }
        out.writeBytes(authResponse);
        if ((capabilities & CapabilityFlags.CONNECT_WITH_DB) != 0) {
            writeNulTerminated(out, options.defaultSchema());
        }
        if ((capabilities & CapabilityFlags.PLUGIN_AUTH) != 0) {
            writeNulTerminated(out, plugin);
        }
        return out.toByteArray();
    }

    private static void writeFixedPart(ByteArrayOutputStream out, int capabilities) {
        writeInt32(out, capabilities);
        writeInt32(out, MAX_PACKET_SIZE);
        out.write(UTF8MB4_GENERAL_CI);
        out.writeBytes(new byte[FILLER_LENGTH]);
    }

    private static void writeNulTerminated(ByteArrayOutputStream out, String s) {
        out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
        out.write(0);
    }

    private static void writeInt32(ByteArrayOutputStream out, int v) {
        out.write(v);
        out.write(v >>> 8);
        out.write(v >>> 16);
        out.write(v >>> 24);
    }

    /** Auth responses are short: one byte below 251, else 0xFC and two bytes. */
    private static void writeLengthEncoded(ByteArrayOutputStream out, int v) {
        if (v < 0xFB) {
            out.write(v);
        } else {
            out.write(0xFC);
            out.write(v);
            out.write(v >>> 8);
        }
    }
}
