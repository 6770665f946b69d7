package dev.canal.server.netty;

import java.util.HexFormat;

/**
 * A port's user and password hash, and Canal's decision table for a login, shared by the
 * client port ({@code canal.user} / {@code canal.passwd}) and the admin port ({@code canal.admin.user} /
 * {@code canal.admin.passwd}): with neither set anyone may log in; a set user must match exactly; a set password
 * hash must be matched by the client's scramble of its password with the handshake's seed.
 *
 * @param user         empty when unset
 * @param passwordHash hex of SHA1(SHA1(password)) (40 hex digits, either case), empty when unset
 */
public record Credentials(String user, String passwordHash) {

    private static final int SHA1_HEX_LENGTH = 40;

    public Credentials {
        user = user == null ? "" : user.trim();
        passwordHash = passwordHash == null ? "" : passwordHash.trim();
        if (!passwordHash.isEmpty() && !isSha1Hex(passwordHash)) {
            throw new IllegalArgumentException("the password hash must be 40 hex digits (hex of SHA1(SHA1(password)))");
        }
    }

    public static boolean isSha1Hex(String text) {
        return text.length() == SHA1_HEX_LENGTH && text.chars().allMatch(c -> Character.digit(c, 16) >= 0);
    }

    /**
     * @param username       as the client sent it
     * @param tokenHexUtf8   the client's scramble as sent (UTF-8 bytes of its hex), empty when it sent none
     * @param seed           the seed of this connection's handshake
     */
    public boolean accepts(String username, byte[] tokenHexUtf8, byte[] seed) {
        if (user.isEmpty() && passwordHash.isEmpty()) {
            return true;
        }
        if (!user.isEmpty() && !user.equals(username)) {
            return false;
        }
        if (passwordHash.isEmpty()) {
            return true;
        }
        if (tokenHexUtf8.length == 0) {
            return false;
        }
        return AuthScramble.matches(tokenHexUtf8, seed, HexFormat.of().parseHex(passwordHash.toLowerCase()));
    }

    @Override
    public String toString() {
        // never print the password hash
        return "Credentials[user=" + user + ", passwd=" + (passwordHash.isEmpty() ? "" : "***") + "]";
    }
}
