package dev.canal.binlog.net;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Cipher;

/** The password scrambles of MySQL's authentication plugins, as pure functions. */
final class AuthPlugins {

    static final String NATIVE_PASSWORD = "mysql_native_password";
    static final String CACHING_SHA2_PASSWORD = "caching_sha2_password";
    static final String SHA256_PASSWORD = "sha256_password";

    /** Both SHA-2 plugins encrypt with OAEP padding (MySQL 8.0.5+ for caching_sha2_password). */
    private static final String RSA_TRANSFORMATION = "RSA/ECB/OAEPWithSHA-1AndMGF1Padding";

    private AuthPlugins() {
    }

    static boolean isSupported(String plugin) {
        return NATIVE_PASSWORD.equals(plugin) || CACHING_SHA2_PASSWORD.equals(plugin) || SHA256_PASSWORD.equals(plugin);
    }

    /** mysql_native_password: SHA1(pw) XOR SHA1(scramble + SHA1(SHA1(pw))); empty for an empty password. */
    static byte[] nativePassword(String password, byte[] scramble) {
        if (password.isEmpty()) {
            return new byte[0];
        }
        MessageDigest sha1 = digest("SHA-1");
        byte[] stage1 = sha1.digest(password.getBytes(StandardCharsets.UTF_8));
        byte[] stage2 = sha1.digest(stage1);
        sha1.update(scramble, 0, Math.min(scramble.length, 20));
        sha1.update(stage2);
        return xor(stage1, sha1.digest());
    }

    /** caching_sha2_password fast path: SHA256(pw) XOR SHA256(SHA256(SHA256(pw)) + scramble). */
    static byte[] cachingSha2(String password, byte[] scramble) {
        if (password.isEmpty()) {
            return new byte[0];
        }
        MessageDigest sha256 = digest("SHA-256");
        byte[] stage1 = sha256.digest(password.getBytes(StandardCharsets.UTF_8));
        byte[] stage2 = sha256.digest(stage1);
        sha256.update(stage2);
        sha256.update(scramble, 0, Math.min(scramble.length, 20));
        return xor(stage1, sha256.digest());
    }

    /** The password as sent over TLS: its bytes and a NUL. */
    static byte[] cleartext(String password) {
        byte[] pw = password.getBytes(StandardCharsets.UTF_8);
        return Arrays.copyOf(pw, pw.length + 1);
    }

    /** Full authentication without TLS: (password + NUL) XOR the scramble, RSA-encrypted with the server's key. */
    static byte[] rsaEncryptedPassword(String password, byte[] scramble, String pemPublicKey) {
        byte[] plain = cleartext(password);
        for (int i = 0; i < plain.length; i++) {
            plain[i] ^= scramble[i % scramble.length];
        }
        try {
            Cipher cipher = Cipher.getInstance(RSA_TRANSFORMATION);
            cipher.init(Cipher.ENCRYPT_MODE, publicKey(pemPublicKey));
            return cipher.doFinal(plain);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot encrypt the password with the server's RSA public key: " + e, e);
        }
    }

    static PublicKey publicKey(String pem) throws GeneralSecurityException {
        String base64 = pem.replaceAll("-----(BEGIN|END) PUBLIC KEY-----", "").replaceAll("\\s", "");
        return KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
    }

    private static byte[] xor(byte[] a, byte[] b) {
        byte[] out = new byte[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = (byte) (a[i] ^ b[i]);
        }
        return out;
    }

    private static MessageDigest digest(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(algorithm + " is missing from this JVM", e);
        }
    }
}
