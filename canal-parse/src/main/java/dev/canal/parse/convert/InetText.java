package dev.canal.parse.convert;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** MariaDB's INET4/INET6 columns travel as raw address bytes; clients get the usual text form. */
final class InetText {

    private InetText() {
    }

    static String inet4(byte[] bytes) {
        return address(bytes, 4);
    }

    static String inet6(byte[] bytes) {
        return address(bytes, 16);
    }

    private static String address(byte[] bytes, int length) {
        byte[] full = bytes.length == length ? bytes : java.util.Arrays.copyOf(bytes, length);
        try {
            return InetAddress.getByAddress(full).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address of " + length + " bytes", e);
        }
    }
}
