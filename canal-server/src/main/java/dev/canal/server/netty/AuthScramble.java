package dev.canal.server.netty;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Canal's MySQL-style challenge-response. The client sends
 * {@code hex(SHA1(pwd) XOR SHA1(seed ‖ SHA1(SHA1(pwd))))}; the server, knowing only SHA1(SHA1(pwd)),
 * recovers SHA1(pwd) from it and checks that hashing it once more gives the stored value.
 */
public final class AuthScramble {

    private static final HexFormat HEX = HexFormat.of();
    private static final int SEED_LENGTH = 8;
    private static final SecureRandom RANDOM = new SecureRandom();

    private AuthScramble() {
    }

    /** A handshake's seed: 8 fresh random bytes. */
    public static byte[] newSeed() {
        byte[] seed = new byte[SEED_LENGTH];
        RANDOM.nextBytes(seed);
        return seed;
    }

    /** The 40 lowercase hex characters a client sends for this password and seed. */
    public static String scramble(String password, byte[] seed) {
        byte[] s1 = sha1(password.getBytes(StandardCharsets.UTF_8));
        byte[] s2 = sha1(s1);
        return HEX.formatHex(xor(sha1(seed, s2), s1));
    }

    /** {@code canal.passwd} for a plain password: hex of SHA1(SHA1(password)), upper case as Canal documents it. */
    public static String passwordHash(String password) {
        return HEX.withUpperCase().formatHex(sha1(sha1(password.getBytes(StandardCharsets.UTF_8))));
    }

    /**
     * Whether the client's token (its hex text as sent) proves knowledge of the password behind
     * {@code storedDoubleSha1}. A token that is not 40 hex characters never matches.
     */
    public static boolean matches(byte[] tokenHexUtf8, byte[] seed, byte[] storedDoubleSha1) {
        byte[] token;
        try {
            token = HEX.parseHex(new String(tokenHexUtf8, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (token.length != storedDoubleSha1.length) {
            return false;
        }
        byte[] candidateSha1 = xor(sha1(seed, storedDoubleSha1), token);
        return MessageDigest.isEqual(sha1(candidateSha1), storedDoubleSha1);
    }

    private static byte[] xor(byte[] a, byte[] b) {
        byte[] out = new byte[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = (byte) (a[i] ^ b[i]);
        }
        return out;
    }

    private static byte[] sha1(byte[]... parts) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-1");
            for (byte[] part : parts) {
                digest.update(part);
            }
            return digest.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime provides SHA-1", e);
        }
    }
}
